import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The command runs in a detached task and exits from there; the main thread is handed to
// Dispatch. Deliberately not an async top level: that would run the command on the main queue,
// and on Linux loading the URLSession plugin (Foundation) after start-up binds the main queue to
// a CFRunLoop nobody runs, so the command would never resume after `--engine urlsession`.
ignoreSIGPIPE()
let arguments = Array(CommandLine.arguments.dropFirst())
let environment = ProcessEnvironment.current()
Task.detached {
  let code = await TickerCommand.run(arguments: arguments, environment: environment)
  exit(code.rawValue)
}
dispatchMain()
