/// The parts of a request, apart from its record type.
package struct RequestParts {
    var selection: [ExpressionNode] = []
    var isDistinct = false
    var filter: ExpressionNode?
    var grouping: [ExpressionNode] = []
    var having: ExpressionNode?
    var orderings: [SQLOrdering] = []
    package var limit: Int?
    var offset: Int?
    var search: FullTextSearchPart?

    /// True when the request selects whole rows (`*`), which decode as its record type.
    package var selectsRecords: Bool { selection.isEmpty }

    /// True when a count needs no subquery: every row of the table that matches the filter counts once.
    var isPlain: Bool {
        search == nil && selection.isEmpty && !isDistinct && grouping.isEmpty && having == nil && limit == nil
            && offset == nil
    }
}
