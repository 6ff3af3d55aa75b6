internal import Foundation

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// The few entry points of libpq the store calls, found at run time with `dlopen`, so that
/// building and testing the package needs no PostgreSQL headers or libraries.
struct LibPQ: @unchecked Sendable {
  // @unchecked Sendable: C function pointers into a library that stays loaded.
  typealias Connect = @convention(c) (UnsafePointer<CChar>) -> OpaquePointer?
  typealias ConnectionInt = @convention(c) (OpaquePointer?) -> Int32
  typealias ConnectionText = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
  typealias Finish = @convention(c) (OpaquePointer?) -> Void
  typealias Exec = @convention(c) (OpaquePointer?, UnsafePointer<CChar>) -> OpaquePointer?
  typealias SendQuery = @convention(c) (OpaquePointer?, UnsafePointer<CChar>) -> Int32
  typealias GetResult = @convention(c) (OpaquePointer?) -> OpaquePointer?
  typealias ResultInt = @convention(c) (OpaquePointer?) -> Int32
  typealias ResultText = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
  typealias ErrorField = @convention(c) (OpaquePointer?, Int32) -> UnsafePointer<CChar>?
  typealias GetValue = @convention(c) (OpaquePointer?, Int32, Int32) -> UnsafePointer<CChar>?
  typealias GetIsNull = @convention(c) (OpaquePointer?, Int32, Int32) -> Int32
  typealias Clear = @convention(c) (OpaquePointer?) -> Void
  typealias Notifies = @convention(c) (OpaquePointer?) -> UnsafeMutableRawPointer?
  typealias FreeMemory = @convention(c) (UnsafeMutableRawPointer?) -> Void
  typealias SendPrepare =
    @convention(c) (
      OpaquePointer?, UnsafePointer<CChar>, UnsafePointer<CChar>, Int32, UnsafePointer<UInt32>?
    ) -> Int32
  typealias SendQueryPrepared =
    @convention(c) (
      OpaquePointer?, UnsafePointer<CChar>, Int32, UnsafePointer<UnsafePointer<CChar>?>?,
      UnsafePointer<Int32>?, UnsafePointer<Int32>?, Int32
    ) -> Int32
  typealias SendQueryParams =
    @convention(c) (
      OpaquePointer?, UnsafePointer<CChar>, Int32, UnsafePointer<UInt32>?,
      UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?, Int32
    ) -> Int32

  let connect: Connect
  let status: ConnectionInt
  let errorMessage: ConnectionText
  let finish: Finish
  let exec: Exec
  let sendQuery: SendQuery
  let getResult: GetResult
  let resultStatus: ResultInt
  let resultErrorMessage: ResultText
  let resultErrorField: ErrorField
  let tupleCount: ResultInt
  let fieldCount: ResultInt
  let getValue: GetValue
  let getIsNull: GetIsNull
  let clear: Clear
  let consumeInput: ConnectionInt
  let notifies: Notifies
  let freeMemory: FreeMemory
  let socket: ConnectionInt
  let backendPID: ConnectionInt
  let transactionStatus: ConnectionInt
  let sendPrepare: SendPrepare
  let sendQueryPrepared: SendQueryPrepared
  let sendQueryParams: SendQueryParams
  let enterPipelineMode: ConnectionInt
  let exitPipelineMode: ConnectionInt
  let pipelineSync: ConnectionInt
  let flush: ConnectionInt

  /// The library names tried, in order.
  static let candidates = [
    "libpq.so.5", "libpq.so", "libpq.5.dylib", "/opt/homebrew/opt/libpq/lib/libpq.5.dylib",
    "/usr/local/opt/libpq/lib/libpq.5.dylib",
  ]

  /// The loaded library, or the error that says how to install it.
  static let shared: Result<LibPQ, PostgreSQLError> = load()

  /// Loads the first of `names` that `dlopen` finds.
  static func load(_ names: [String] = candidates) -> Result<LibPQ, PostgreSQLError> {
    var handle: UnsafeMutableRawPointer?
    for name in names {
      handle = dlopen(name, RTLD_NOW | RTLD_LOCAL)
      if handle != nil { break }
    }
    guard let handle else {
      return .failure(
        PostgreSQLError(
          .libraryUnavailable,
          message: "libpq, PostgreSQL's client library, could not be loaded (tried "
            + names.joined(separator: ", ")
            + "); install the Debian package libpq5 (apt-get install libpq5), or libpq on macOS"))
    }
    func symbol<T>(_ name: String, as _: T.Type) throws(PostgreSQLError) -> T {
      guard let address = dlsym(handle, name) else {
        throw PostgreSQLError(
          .libraryUnavailable,
          message: "the loaded libpq has no \(name); install libpq5 14 or later")
      }
      return unsafeBitCast(address, to: T.self)
    }
    do {
      return .success(
        LibPQ(
          connect: try symbol("PQconnectdb", as: Connect.self),
          status: try symbol("PQstatus", as: ConnectionInt.self),
          errorMessage: try symbol("PQerrorMessage", as: ConnectionText.self),
          finish: try symbol("PQfinish", as: Finish.self),
          exec: try symbol("PQexec", as: Exec.self),
          sendQuery: try symbol("PQsendQuery", as: SendQuery.self),
          getResult: try symbol("PQgetResult", as: GetResult.self),
          resultStatus: try symbol("PQresultStatus", as: ResultInt.self),
          resultErrorMessage: try symbol("PQresultErrorMessage", as: ResultText.self),
          resultErrorField: try symbol("PQresultErrorField", as: ErrorField.self),
          tupleCount: try symbol("PQntuples", as: ResultInt.self),
          fieldCount: try symbol("PQnfields", as: ResultInt.self),
          getValue: try symbol("PQgetvalue", as: GetValue.self),
          getIsNull: try symbol("PQgetisnull", as: GetIsNull.self),
          clear: try symbol("PQclear", as: Clear.self),
          consumeInput: try symbol("PQconsumeInput", as: ConnectionInt.self),
          notifies: try symbol("PQnotifies", as: Notifies.self),
          freeMemory: try symbol("PQfreemem", as: FreeMemory.self),
          socket: try symbol("PQsocket", as: ConnectionInt.self),
          backendPID: try symbol("PQbackendPID", as: ConnectionInt.self),
          transactionStatus: try symbol("PQtransactionStatus", as: ConnectionInt.self),
          sendPrepare: try symbol("PQsendPrepare", as: SendPrepare.self),
          sendQueryPrepared: try symbol("PQsendQueryPrepared", as: SendQueryPrepared.self),
          sendQueryParams: try symbol("PQsendQueryParams", as: SendQueryParams.self),
          enterPipelineMode: try symbol("PQenterPipelineMode", as: ConnectionInt.self),
          exitPipelineMode: try symbol("PQexitPipelineMode", as: ConnectionInt.self),
          pipelineSync: try symbol("PQpipelineSync", as: ConnectionInt.self),
          flush: try symbol("PQflush", as: ConnectionInt.self)))
    } catch {
      return .failure(error)
    }
  }
}
