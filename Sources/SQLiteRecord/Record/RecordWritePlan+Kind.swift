extension RecordWritePlan {
    /// Which statement a write runs: a case (``Tag``) and, for the upserts that report their outcome and the
    /// partial updates, what their SQL depends on besides. Plain values: a kind is part of the key of its plan
    /// in the connection's cache (``RecordConnectionCache``), compared and hashed by value.
    struct Kind: Hashable, Sendable {
        /// The statement's case.
        enum Tag: UInt8, Hashable, Sendable {
            /// INSERT of every column, the primary key's value included.
            case insertWithID
            /// INSERT without the primary key column, so that SQLite assigns the rowid.
            case insertWithoutID
            /// UPDATE of every column but the key's, `WHERE` the key: its values are the last parameters,
            /// bound from the record's `id`.
            case update
            /// INSERT of every column, `ON CONFLICT` with the key updating the others: `save()` for a key the
            /// client chose.
            case upsert
            /// `INSERT OR IGNORE` with the key's value.
            case insertOrIgnoreWithID
            /// `INSERT OR IGNORE` leaving the rowid to SQLite.
            case insertOrIgnoreWithoutID
            /// The upsert of ``Record/upsert(_:onConflict:updating:)-method``: see ``UpsertClause``.
            case upsertReporting
            /// UPDATE of the named columns only, `WHERE` the key, bound as ``update`` binds it.
            case updateColumns
            /// The columns of ``update``, in a statement that never runs: its binding only keeps the values a
            /// record encodes, for ``RecordChangeComparison``.
            case compareValues
        }

        let tag: Tag
        /// The upsert's clause, for ``Tag/upsertReporting``; nil for the other tags, and for the default
        /// clause (``UpsertClause/default``), so that the kind of a loop of default upserts holds no array.
        let upsertClause: UpsertClause?
        /// The columns a partial update writes, for ``Tag/updateColumns``; empty for the other tags.
        let namedColumns: [String]

        private init(_ tag: Tag, upsertClause: UpsertClause? = nil, namedColumns: [String] = []) {
            self.tag = tag
            self.upsertClause = upsertClause
            self.namedColumns = namedColumns
        }

        static var insertWithID: Kind { Kind(.insertWithID) }
        static var insertWithoutID: Kind { Kind(.insertWithoutID) }
        static var update: Kind { Kind(.update) }
        static var compareValues: Kind { Kind(.compareValues) }
        static var upsert: Kind { Kind(.upsert) }

        /// `INSERT OR IGNORE`, with the key's value or (`withoutID`) leaving the rowid to SQLite.
        static func insertOrIgnore(withoutID: Bool) -> Kind {
            Kind(withoutID ? .insertOrIgnoreWithoutID : .insertOrIgnoreWithID)
        }

        /// The upsert that reports its outcome, with `clause`.
        static func upsertReporting(_ clause: UpsertClause) -> Kind {
            clause == .default ? defaultUpsertReporting : Kind(.upsertReporting, upsertClause: clause)
        }

        /// The upsert that reports its outcome, with the default clause: conflict on the key, every column
        /// updated.
        static var defaultUpsertReporting: Kind { Kind(.upsertReporting) }

        /// The update of `columns` only.
        static func updateColumns(_ columns: [String]) -> Kind { Kind(.updateColumns, namedColumns: columns) }

        // By tag first, and the clause or the columns only for the tags that have them: a write compares the
        // kind of its plan for every record.
        @inline(__always)
        static func == (lhs: Kind, rhs: Kind) -> Bool {
            guard lhs.tag == rhs.tag else { return false }
            switch lhs.tag {
            case .upsertReporting: return lhs.upsertClause == rhs.upsertClause
            case .updateColumns: return lhs.namedColumns == rhs.namedColumns
            default: return true
            }
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(tag)
            switch tag {
            case .upsertReporting: hasher.combine(upsertClause)
            case .updateColumns: hasher.combine(namedColumns)
            default: break
            }
        }

        /// True when the statement leaves some of the record's columns out of the columns it binds: the
        /// rowid of an insert that lets SQLite choose it, every key column of an update, the columns a
        /// partial update does not name.
        var leavesOutKey: Bool {
            switch tag {
            case .insertWithID, .upsert, .insertOrIgnoreWithID: return false
            case .insertWithoutID, .update, .updateColumns, .insertOrIgnoreWithoutID, .compareValues: return true
            case .upsertReporting: return upsertClause?.leavesOutRowID ?? false
            }
        }

        /// True for the kinds that bind the key's values after the record's columns: the updates.
        var bindsKeyAfterColumns: Bool { tag == .update || tag == .updateColumns }

        /// True for the inserts that leave the rowid to SQLite.
        var insertsWithoutID: Bool {
            switch tag {
            case .insertWithoutID, .insertOrIgnoreWithoutID: return true
            case .upsertReporting: return upsertClause?.leavesOutRowID ?? false
            default: return false
            }
        }

        /// The statement's entry in the connection's SQL cache (``RecordConnectionCache/sql(_:_:table:primaryKey:columns:build:)``).
        var operation: RecordSQLOperation {
            switch tag {
            case .insertWithID: return .insertWithID
            case .insertWithoutID: return .insertWithoutID
            case .update, .compareValues: return .update
            case .upsert: return .upsert
            case .insertOrIgnoreWithID, .insertOrIgnoreWithoutID: return .insertOrIgnore
            case .upsertReporting: return .upsertReporting(upsertClause ?? .default)
            case .updateColumns: return .updateColumns(namedColumns)
            }
        }

        /// The statement's SQL for `table`, binding `columns` (key columns left out when ``leavesOutKey``)
        /// in order, then, for an update, the key's values (`keyCounts` for each of `keyColumns`).
        func sql(table: String, columns: [String], keyColumns: [String], keyCounts: [Int]) -> String {
            switch tag {
            case .insertWithID, .insertWithoutID: return RecordSQL.insert(into: table, columns: columns)
            case .update, .updateColumns, .compareValues:
                return RecordSQL.update(table, columns: columns, keyColumns: keyColumns, counts: keyCounts)
            case .upsert: return RecordSQL.upsert(into: table, columns: columns, keyColumns: keyColumns)
            case .insertOrIgnoreWithID, .insertOrIgnoreWithoutID:
                return RecordSQL.insert(into: table, columns: columns, orIgnore: true)
            case .upsertReporting:
                let clause = upsertClause ?? .default
                return RecordSQL.upsert(
                    into: table, columns: columns, conflictColumns: clause.conflictColumns ?? keyColumns,
                    updating: clause.updatedColumns(bound: columns, keyColumns: keyColumns))
            }
        }

        /// True for a column `name` that the statement leaves out: the rowid for an insert without id, every
        /// key column for an update, the columns a partial update does not name.
        func leavesOut(_ name: String, keyColumns: [String]) -> Bool {
            switch tag {
            case .insertWithoutID, .insertOrIgnoreWithoutID: return name == keyColumns.first
            case .update, .compareValues: return keyColumns.contains(name)
            case .updateColumns: return keyColumns.contains(name) || !namedColumns.contains(name)
            case .insertWithID, .upsert, .insertOrIgnoreWithID: return false
            case .upsertReporting: return (upsertClause?.leavesOutRowID ?? false) && name == keyColumns.first
            }
        }
    }
}
