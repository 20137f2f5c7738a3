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
  Diagnostics(secrets: [], verbose: false).error("stdout is closed: there is nowhere to print prices")
  exit(ExitCode.ioError.rawValue)
}
#if canImport(CMallocShim)
  // glibc gives threads their own malloc arenas (up to 8 per core), and each new connection's
  // reader is a new thread: under sustained load every arena keeps its own high-water mark and
  // RSS creeps up across reconnects (soak: +1.8–3.0 MB per million messages). One arena keeps
  // it flat (+0.1–0.4 MB) at the same throughput.
  // Blocks of 128 KiB and more (a large message, a chunk of its quotes) always get their own
  // mapping, returned to the system when freed. glibc would otherwise raise that threshold to
  // the size of each such block freed, then serve the next ones from the heap, whose freed
  // space stays resident: 100 messages of 760 KB peaked 4.6 MB higher that way.
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
// registered .eh_frame: 1.6 MB of pages, and a heap array): 1.5 MB of peak RSS for nothing. The
// static build does not use the main queue (no URLSession plugin there), so its main thread
// just waits; the command's task ends the process with exit().
if URLSessionPlugin.isStaticExecutable {
  while true { pause() }
}
dispatchMain()
