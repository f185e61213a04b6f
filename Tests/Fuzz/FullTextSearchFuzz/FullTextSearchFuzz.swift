import Foundation
import SQLiteRecord

// Full-text search text: each input is text a user typed (its bytes as UTF-8, invalid sequences replaced),
// searched through `search(_:)`, the three FTS5Pattern initializers that read user text, and the excerpts,
// over a small FTS5 index under two tokenizers. The FTS5Pattern documentation promises that nothing a user
// types is FTS5 syntax, so any error from those calls is a fault (the target traps, and libFuzzer keeps the
// input). A raw pattern (`FTS5Pattern(rawPattern:)`) is FTS5's own syntax: it may throw, and must not trap.

struct Doc: FullTextSearchable {
    var id: Int64?
    var title: String
    var body: String
    static let tableName = "docs"
    static let fullTextIndex = FullTextIndex(columns: ["title", "body"])
}

struct StemmedDoc: FullTextSearchable {
    var id: Int64?
    var title: String
    var body: String
    static let tableName = "stemmed_docs"
    static let fullTextIndex = FullTextIndex(columns: ["title", "body"], tokenizer: .porter(removeDiacritics: false))
}

let documents: [(String, String)] = [
    ("São Paulo", "A city of Brazil, NEAR the coast; AND more \"quoted\" text."),
    ("Zürich", "Ärzte und Straße: ΣΊΣΥΦΟΣ σίσυφος 日本語のテキスト"),
    ("runs", "running ran runner * ^ - : ( ) OR NOT"),
    ("nul\u{0}inside", "text\u{0}with\u{0}NUL and emoji 👩‍👩‍👧 e\u{301}"),
    ("", ""),
]

/// One in-memory database for the run: libFuzzer calls the target on one thread, one input at a time, and the
/// searches only read it.
nonisolated(unsafe) var sharedDatabase: Database?

func database() throws -> Database {
    if let sharedDatabase { return sharedDatabase }
    let db = try Database()
    for type in [Doc.self, StemmedDoc.self] as [any FullTextSearchable.Type] {
        try db.execute(
            sql: "CREATE TABLE \(type.tableName) (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL)")
        try type.createFullTextIndex(in: db)
    }
    for (title, body) in documents {
        var doc = Doc(id: nil, title: title, body: body)
        try doc.insert(db)
        var stemmed = StemmedDoc(id: nil, title: title, body: body)
        try stemmed.insert(db)
    }
    sharedDatabase = db
    return db
}

func run(_ bytes: [UInt8]) throws {
    guard let first = bytes.first else { return }
    let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
    let db = try database()
    let patterns = [
        FTS5Pattern(matchingAllTokensIn: text), FTS5Pattern(matchingAnyTokenIn: text),
        FTS5Pattern(matchingAllPrefixesIn: text),
    ]
    do {
        _ = try Doc.search(text).fetch(db)
        _ = try StemmedDoc.search(text).count(db)
        for pattern in patterns {
            _ = try Doc.matching(pattern).fetch(db)
            _ = try StemmedDoc.matching(pattern).limit(2).fetch(db)
        }
        // The excerpt's markers and ellipsis are bound values: any text.
        let marker = String(text.prefix(Int(first % 8)))
        _ = try Doc.search(text).fetchMatches(db, excerpt: .highlight(Column("title"), open: marker, close: marker))
        _ = try Doc.search(text).fetchMatches(
            db, excerpt: .snippet(Column("body"), open: marker, close: "]", ellipsis: marker, tokens: Int(first) - 100))
        _ = try Doc.search(text).filter(Column("id") > 1).order(Column("title")).fetch(db)
    } catch {
        fatalError("search text \(text.debugDescription) threw \(error)")
    }
    _ = try? Doc.matching(FTS5Pattern(rawPattern: text)).fetch(db)
    _ = try? StemmedDoc.matching(FTS5Pattern(rawPattern: text)).count(db)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    do {
        try run(Array(UnsafeBufferPointer(start: data, count: size)))
    } catch {
        fatalError("the index could not be built: \(error)")
    }
    return 0
}
