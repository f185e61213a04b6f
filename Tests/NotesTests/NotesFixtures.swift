import Foundation
import SQLiteRecord
import XCTest

@testable import Notes

/// What the Notes tests share: the shipped property list, a pinned time zone, and the exact notes the list
/// holds.
enum NotesFixtures {
    /// Examples/Notes/NotesList.plist, from the package's source tree.
    static let shippedList = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/Notes/NotesList.plist")

    /// The zone the tests read and write local times in, whatever the machine's: it has daylight saving
    /// (a gap on 2024-03-31 02:00-03:00, a repeated hour on 2024-10-27 02:00-03:00).
    static func paris() throws -> TimeZone {
        try XCTUnwrap(TimeZone(identifier: "Europe/Paris"))
    }

    /// The shipped list's notes in file order: the Unix time of each date read as Paris local time (CET
    /// +01:00 before 2024-03-31, CEST +02:00 until 2024-10-27), the local text, and the content.
    static let shippedNotes: [(seconds: TimeInterval, local: String, content: String)] = [
        (1_704_701_700, "2024-01-08 09:15:00", "Renew the library card before Friday."),
        (1_705_686_000, "2024-01-19 18:40:00", "Crème brûlée: 4 egg yolks, 500 ml cream, 80 g sugar."),
        (1_706_871_930, "2024-02-02 12:05:30", "Call Zoë about the Köln trip."),
        (1_707_894_000, "2024-02-14 08:00:00", "Water the plants \u{1F331} (ferns twice a week)."),
        (1_709_225_110, "2024-02-29 17:45:10", "Leap day: check that the calendar export has it."),
        (1_710_148_800, "2024-03-11 10:20:00", "Shopping list:\n- flour\n- eggs\n- milk"),
        (1_711_829_400, "2024-03-30 21:10:00", "Clocks go forward tonight in most of Europe."),
        (1_712_143_800, "2024-04-03 13:30:00", "Compare: 3 < 5 & 7 > 2, and <b>bold</b> is not markup here."),
        (1_713_794_400, "2024-04-22 16:00:00", "Заметка по-русски: купить хлеб."),
        (1_715_245_871, "2024-05-09 11:11:11", "会議は月曜日の10時です。"),
        (1_716_793_200, "2024-05-27 09:00:00", "Cafe\u{301} opening hours changed (decomposed accent)."),
        (1_718_454_300, "2024-06-15 14:25:00", "Ελληνικά: καλημέρα."),
        (1_719_815_400, "2024-07-01 08:30:00", "Back up the photos to the external drive."),
        (1_721_411_400, "2024-07-19 19:50:00", "مرحبا: a greeting in Arabic script."),
        (1_723_097_288, "2024-08-08 08:08:08", "Tab\tseparated\tvalues"),
        (1_725_282_000, "2024-09-02 15:00:00", "Read chapter 4 of \u{201C}The Pragmatic Programmer\u{201D}."),
        (1_730_026_800, "2024-10-27 12:00:00", "Clocks went back last night in most of Europe."),
        (1_731_315_600, "2024-11-11 10:00:00", "Buy bread: 2 \u{D7} baguette, 1 \u{D7} pain de campagne."),
        (1_735_067_700, "2024-12-24 20:15:00", "Unicode check: ñ, ø, ß, ł, İ, ﬁ."),
        (1_735_685_999, "2024-12-31 23:59:59", "Last note of the year."),
    ]

    /// A note book over a fresh in-memory database, reading dates in Paris time.
    static func makeBook() throws -> NoteBook {
        try NoteBook(queue: DatabaseQueue(), dates: NoteDateFormat(timeZone: paris()))
    }

    /// A new empty folder under the temporary directory; the caller removes it.
    static func makeTemporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notes-tests-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Writes `entries` as a property list in `format` to `url`.
    static func writeList(
        _ entries: [[String: Any]], format: PropertyListSerialization.PropertyListFormat, to url: URL
    )
        throws
    {
        try PropertyListSerialization.data(fromPropertyList: entries, format: format, options: 0).write(to: url)
    }

    /// The shipped list's entries as dictionaries, to alter one of them.
    static func shippedEntries() -> [[String: Any]] {
        shippedNotes.map { ["date": $0.local, "content": $0.content] }
    }

    /// The UTF-8 bytes of each string: equal bytes, not Swift's canonical equivalence (which would take
    /// a decomposed "é" for a composed one).
    static func bytes(_ strings: [String]) -> [[UInt8]] {
        strings.map { Array($0.utf8) }
    }
}
