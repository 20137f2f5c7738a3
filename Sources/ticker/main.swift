import CLI
import Dispatch
import EnginePlugin
import FeedRuntime
import Gateway
import Outputs
import Recording
import TickerSupport

#if canImport(Glibc)
  import CMallocShim
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The command runs in a detached task and exits from there; the main thread is handed to
// Dispatch. Deliberately not an async top level: that would run the command on the main queue,
// and on Linux loading the URLSession plugin (Foundation) after start-up binds the main queue to
// a CFRunLoop nobody runs, so the command would never resume after `--engine urlsession`.
ignoreSIGPIPE()
// Started with stdin, stdout or stderr closed (`ticker >&-`), the next descriptor opened (a
// socket) would take its number, and prices or diagnostics would go into the connection. Each
// closed one is reopened on /dev/null first; a closed stdout then ends the run (exit 74).
if StandardStreams.reopenClosed().contains(1) {
  let format = LogFormat.early(
    arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current())
  Diagnostics(secrets: [], verbose: false, format: format).error(
    "stdout is closed: there is nowhere to print prices", event: .stdoutClosed)
  exit(ExitCode.ioError.rawValue)
}
#if canImport(CMallocShim)
  // glibc gives threads their own malloc arenas, and each new connection's reader is a new
  // thread: every arena would keep its own high-water mark and RSS creep up across reconnects.
  // One arena keeps it flat at the same throughput. Blocks of 128 KiB and more (a large message,
  // a chunk of its quotes) always get their own mapping, returned when freed, instead of glibc
  // raising the threshold and keeping their freed space resident in the heap.
  _ = ticker_malloc_defaults()
#endif
let arguments = Array(CommandLine.arguments.dropFirst())
let environment = ProcessEnvironment.current()
Task.detached {
  let code = await Ticker.run(arguments: arguments, environment: environment)
  exit(code.rawValue)
}
// dispatchMain() ends the main thread with pthread_exit, which unwinds its stack. In a static
// executable the unwinder then reads and sorts every frame description the binary has (libgcc's
// registered .eh_frame, all of its pages, and a heap array): peak RSS for nothing. The
// static build does not use the main queue (no URLSession plugin there), so its main thread
// just waits; the command's task ends the process with exit().
if URLSessionPlugin.isStaticExecutable {
  while true { pause() }
}
dispatchMain()
