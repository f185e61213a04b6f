/// A coding key made from a column name, for errors raised where only the name is at hand.
struct ColumnCodingKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
