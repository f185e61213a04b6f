// The throwaway servers and the per-test schema base class, shared with the contract suite.
@_exported import PostgresTestSupport
