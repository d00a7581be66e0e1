/// Thrown by ``allPages(of:cursor:next:pagesMax:fetch:)`` when a query still has a next page
/// after `pagesMax` pages: a cursor that does not move on would otherwise loop for ever.
public struct PagingLimitExceeded: Error, CustomStringConvertible {
    /// The bound that was reached.
    public let pagesMax: Int

    public var description: String { "still a next page after \(pagesMax) pages: does the cursor move on?" }
}

/// Every page of a paged query, in order: fetches `query`, then again with the query's
/// `cursor` set to the page's `next`, until a page has no `next`.
///
/// - Parameters:
///   - query: the first page's query.
///   - cursor: where the query takes the cursor of the page to continue from (`\.after`,
///     `\.before`).
///   - next: where a page holds the cursor of the page after it (`nil` on the last page).
///   - pagesMax: how many pages at the most.
///   - fetch: reads one page.
/// - Throws: what `fetch` throws; ``PagingLimitExceeded`` after `pagesMax` pages.
public func allPages<Query, Page, Cursor>(
    of query: Query, cursor: WritableKeyPath<Query, Cursor?>, next: KeyPath<Page, Cursor?>,
    pagesMax: Int = 10_000, fetch: (Query) async throws -> Page
) async throws -> [Page] {
    var query = query
    var pages: [Page] = []
    while pages.count < pagesMax {
        let page = try await fetch(query)
        pages.append(page)
        guard let following = page[keyPath: next] else { return pages }
        query[keyPath: cursor] = following
    }
    throw PagingLimitExceeded(pagesMax: pagesMax)
}
