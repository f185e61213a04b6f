import Foundation
import SQLiteRecord

/// A test-support process for CrashSafetyTests: writes numbered batches of records into a WAL database,
/// each batch one transaction, and reports each commit on standard output, until it is killed or has
/// written the batches it was asked for.
///
/// ```
/// SQLiteRecordCrashWriter DB_PATH [--batch-size N] [--batches M] [--catch-interrupts] [--pool]
/// ```
///
/// With `--pool`, it writes through a DatabasePool instead of a DatabaseQueue, and after each commit reads
/// the batch back on a reader (a read beside the next write) before it reports the commit.
///
/// With `--catch-interrupts`, each batch is first written by a body that catches an interrupt: it inserts
/// half the batch, runs a long INSERT into `noise` that another thread interrupts (SQLite then rolls the whole
/// transaction back), catches that error, and goes on inserting the rest. That write must throw and commit
/// nothing (it prints `refused N`); the batch is then written whole by an ordinary write.
///
/// It prints `ready FIRST` once the database is open (FIRST is the number of the first batch it will
/// write: one more than the highest batch already in the file), then `committed N` after batch N's
/// COMMIT returned. Batch N holds `rows(inBatch: N)` rows: the base size, ten times over for every third
/// batch, so that kills land inside long transactions too and not only in the fsync of a COMMIT. Each line is one `write(2)`, so a SIGKILL never leaves half a line; the exit status is
/// 0 after `--batches` batches, 1 on an error (printed on standard error), 2 for bad arguments.
struct Item: Record, Equatable {
    var id: Int64?
    var batch: Int64
    var seq: Int64
    var payload: String
    /// A checksum of batch, seq and payload, so a torn row cannot pass for a whole one.
    var checksum: Int64
    static let tableName = "items"

    init(batch: Int64, seq: Int64) {
        self.id = nil
        self.batch = batch
        self.seq = seq
        self.payload = String(repeating: "batch \(batch) row \(seq); ", count: 1 + Int(seq % 7))
        self.checksum = Item.checksum(batch: batch, seq: seq, payload: payload)
    }

    /// FNV-1a over the three values, folded into 63 bits.
    static func checksum(batch: Int64, seq: Int64, payload: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(batch)|\(seq)|\(payload)".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return Int64(bitPattern: hash >> 1)
    }
}

/// The rows in batch `batch`: `base`, or ten times `base` when `batch` is a multiple of 3.
func rows(inBatch batch: Int64, base: Int64) -> Int64 {
    batch % 3 == 0 ? base * 10 : base
}

/// The table; the test creates it too, so either may run first.
let schema = """
    CREATE TABLE IF NOT EXISTS items (
        id INTEGER PRIMARY KEY, batch INTEGER NOT NULL, seq INTEGER NOT NULL, payload TEXT NOT NULL,
        checksum INTEGER NOT NULL, UNIQUE (batch, seq));
    CREATE TABLE IF NOT EXISTS noise (x)
    """

/// Writes `items` in a body that catches the interrupt of a long statement and goes on; the write must throw.
/// Returns true when it did (nothing committed, as the library promises).
/// Signalled by the SQL function `noise_started` while the long statement of a body runs.
let noiseRuns = DispatchSemaphore(value: 0)

func writeCatchingAnInterrupt(_ queue: any DatabaseWriter, _ items: [Item]) -> Bool {
    let interrupted = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        // Once the long statement runs, a few milliseconds into it: the interrupt lands inside it.
        if noiseRuns.wait(timeout: .now() + 30) == .success {
            Thread.sleep(forTimeInterval: Double.random(in: 0.001...0.015))
        }
        queue.interrupt()
        interrupted.signal()
    }
    // The interrupt lands inside this write, never in the next one.
    defer { interrupted.wait() }
    do {
        try queue.write { db in
            var items = items
            let half = items.count / 2
            for index in 0..<half { try items[index].insert(db) }
            do {
                try db.execute(
                    sql: "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM n LIMIT 500000000) "
                        + "INSERT INTO noise SELECT noise_started(x) FROM n")
            } catch let error as DatabaseError where error.isInterrupted {
                // Caught, as careless code does; what follows must not commit.
            }
            for index in half..<items.count { try items[index].insert(db) }
        }
        return false
    } catch {
        return true
    }
}

/// Writes `line` and a newline to standard output in one `write(2)`: no buffering to lose at SIGKILL.
func report(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            guard let base = buffer.baseAddress else { return }
            let written = write(1, base + offset, buffer.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }
}

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("SQLiteRecordCrashWriter: \(message)\n".utf8))
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let path = arguments.first, !path.hasPrefix("--") else {
    fail("usage: SQLiteRecordCrashWriter DB_PATH [--batch-size N] [--batches M]", status: 2)
}
arguments.removeFirst()
var batchSize: Int64 = 25
var batchLimit: Int64?
var catchesInterrupts = false
var usesPool = false
while let option = arguments.first {
    arguments.removeFirst()
    if option == "--catch-interrupts" {
        catchesInterrupts = true
        continue
    }
    if option == "--pool" {
        usesPool = true
        continue
    }
    guard let text = arguments.first, let value = Int64(text), value > 0 else {
        fail("\(option) needs a positive number", status: 2)
    }
    arguments.removeFirst()
    switch option {
    case "--batch-size": batchSize = value
    case "--batches": batchLimit = value
    default: fail("unknown option \(option)", status: 2)
    }
}

do {
    let queue: any DatabaseWriter =
        usesPool
        ? try DatabasePool(path: path) : try DatabaseQueue(path: path, options: .init(journalMode: .wal))
    let first = try queue.write { db -> Int64 in
        try db.execute(sql: schema)
        return (try db.scalar(Int64.self, sql: "SELECT max(batch) FROM items") ?? 0) + 1
    }
    try queue.write { db in
        try db.createFunction("noise_started", argumentCount: 1) { arguments in
            if case .integer(1) = arguments.first { noiseRuns.signal() }
            return arguments.first
        }
    }
    report("ready \(first)")
    var batch = first
    while batchLimit.map({ batch < first + $0 }) ?? true {
        var items = (1...rows(inBatch: batch, base: batchSize)).map { Item(batch: batch, seq: $0) }
        if catchesInterrupts {
            guard writeCatchingAnInterrupt(queue, items) else {
                fail("a body that caught an interrupt committed", status: 1)
            }
            report("refused \(batch)")
        }
        try queue.write { db in try Item.save(db, &items) }
        if usesPool {
            let stored = try queue.read { db in
                try db.scalar(Int64.self, sql: "SELECT count(*) FROM items WHERE batch = ?", arguments: [batch])
            }
            guard stored == Int64(items.count) else {
                fail("batch \(batch) reads back \(stored ?? -1) rows of \(items.count)", status: 1)
            }
        }
        report("committed \(batch)")
        batch += 1
    }
} catch {
    fail("\(error)", status: 1)
}
