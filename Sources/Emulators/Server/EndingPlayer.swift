import WebSocketServer
import WebSocketWire

/// What one connection does after its script, as its plan's ending says: close, hold, drop,
/// go half-open, stall mid-frame, misbehave, keep trading (the synthetic stream) or blast load.
/// After a close it returns at once; the connection then waits for the client's answer.
struct EndingPlayer {
  let session: VenueSession
  let writer: ServerFrameWriter
  let life: ConnectionLife
  let server: FeedServer

  func play(_ ending: ConnectionPlan.Ending) {
    switch ending {
    case .close(let status):
      session.perform(.close(status))
    case .hold:
      life.waitForInterruption()
    case .drop:
      session.perform(.drop)
    case .unresponsive:
      life.isUnresponsive = true
      life.waitForInterruption()
    case .stallMidFrame:
      life.isUnresponsive = true
      // A text frame announcing 100 bytes, of which 3 arrive.
      try? writer.write([0x81, 100, 0x7B, 0x22, 0x64])
      life.waitForInterruption()
    case .closeThenData:
      session.perform(.close(CloseStatus(code: .normalClosure, reason: "bye")))
      if (try? writer.send(Frame(opcode: .text, payload: Array(#"{"type":"ping"}"#.utf8)))) == true {
        server.update { $0.compressedMessages += 1 }
      }
    case .pingFlood:
      pingFlood()
    case .synthetic(let seed, let interval):
      synthesize(seed: seed, interval: interval)
    case .market(let market, let interval):
      trade(in: market, interval: interval)
    case .send(let kind, let body, let then):
      session.perform(kind == .binary ? .binary(body) : .text(body))
      if !life.isStopping { play(then) }
    case .blast(let count, let then):
      let hostile = server.options.hostileBlast
      if let agreed = writer.deflate {
        compressedBlast(
          count: count, venue: nil, agreed: agreed, extra: hostile ? BlastFrames.hostile : [])
      } else {
        blast(count: count, batch: { (BlastFrames.batch(hostile: hostile), 0) }) {
          (BlastFrames.frames(count: $0), 0)
        }
      }
      afterBlast(then)
    case .venueBlast(let venue, let count, let then):
      if let agreed = writer.deflate {
        compressedBlast(count: count, venue: venue, agreed: agreed)
      } else {
        blast(count: count, batch: { (BlastFrames.batch(for: venue), 0) }) {
          (BlastFrames.frames(count: $0, venue: venue), 0)
        }
      }
      afterBlast(then)
    case .mixedBlast(let count, let mix, let then):
      mixedBlast(count: count, mix: mix)
      afterBlast(then)
    case .prebuiltBlast(let prebuilt, let then):
      writePrebuilt(prebuilt)
      afterBlast(then)
    }
  }

  /// The ending after a blast: a close waits longer for the client's answer (it may still be
  /// reading a million messages); anything but a close or a drop holds.
  private func afterBlast(_ ending: ConnectionPlan.Ending) {
    if life.isStopping { return }
    switch ending {
    case .close(let status):
      session.perform(.close(status))
      life.waitForEnd(seconds: 30)
    case .drop:
      session.perform(.drop)
    default:
      life.waitForInterruption()
    }
  }

  /// Stops reading the client and sends 125-byte pings as fast as the socket takes them.
  private func pingFlood() {
    life.stopsReading = true
    let ping = FrameEncoder.encodeServerFrame(
      Frame(opcode: .ping, payload: Array(repeating: 0x70, count: 125)))
    let burst = Array([[UInt8]](repeating: ping, count: 64).joined())
    while !life.isFinished {
      do { try writer.write(burst) } catch { return }
    }
  }

  /// Writes `count` pre-framed messages, a batch of `BlastFrames.messagesPerBatch` at a time:
  /// `batch` (made once, when first needed) again and again, then `remainder` of what is left;
  /// each with the number of its messages that are compressed.
  private func blast(
    count: Int, batch makeBatch: () -> (frames: [UInt8], compressed: Int),
    remainder: (Int) -> (frames: [UInt8], compressed: Int)
  ) {
    var batch: (frames: [UInt8], compressed: Int)?
    var remaining = count
    while remaining > 0, !life.isStopping {
      let n = min(remaining, BlastFrames.messagesPerBatch)
      let chunk: (frames: [UInt8], compressed: Int)
      if n == BlastFrames.messagesPerBatch {
        let whole = batch ?? makeBatch()
        batch = whole
        chunk = whole
      } else {
        chunk = remainder(n)
      }
      do {
        try writer.write(chunk.frames)
      } catch {
        life.finish()
        return
      }
      remaining -= n
      server.update {
        $0.blasted += n
        $0.compressedMessages += chunk.compressed
      }
    }
  }

  /// `blast` with permessage-deflate agreed: one batch compressed for this connection's
  /// agreement (`BlastFrames.compressed`), written again and again, with `extra` (uncompressed
  /// frames, e.g. `BlastFrames.hostile`) after each whole batch.
  private func compressedBlast(
    count: Int, venue: VenueEmulation?, agreed: PerMessageDeflate, extra: [UInt8] = []
  ) {
    blast(
      count: count,
      batch: {
        let batch = BlastFrames.compressed(count: BlastFrames.messagesPerBatch, venue: venue, agreed: agreed)
        return (batch.frames + extra, batch.compressed)
      },
      remainder: { BlastFrames.compressed(count: $0, venue: venue, agreed: agreed) })
  }

  /// Writes `count` multi-trade messages shaped by `mix`, built (and, with permessage-deflate
  /// agreed, compressed) and written 100 at a time.
  private func mixedBlast(count: Int, mix: BlastMix) {
    let agreed = writer.deflate
    if agreed == nil, let prebuilt = mix.prebuilt, prebuilt.count == count {
      writePrebuilt(prebuilt)
      return
    }
    var generator = BlastFrames.Mixed(mix)
    var remaining = count
    while remaining > 0, !life.isStopping {
      let n = min(remaining, 100)
      // With permessage-deflate agreed, each 100 are compressed afresh (`PrecompressedFrames`).
      let bytes: [UInt8]
      var compressed = 0
      if let agreed {
        let made = generator.compressed(count: n, agreed: agreed)
        (bytes, compressed) = (made.bytes, made.compressed)
      } else {
        bytes = generator.frames(count: n).bytes
      }
      do {
        try writer.write(bytes)
      } catch {
        life.finish()
        return
      }
      remaining -= n
      server.update {
        $0.blasted += n
        $0.compressedMessages += compressed
      }
    }
  }

  /// Writes a mixed blast framed ahead of time, a chunk at a time.
  private func writePrebuilt(_ prebuilt: PrebuiltBlast) {
    var left = prebuilt.count
    for chunk in prebuilt.chunks {
      guard !life.isStopping else { return }
      do {
        try writer.write(chunk)
      } catch {
        life.finish()
        return
      }
      let n = min(left, PrebuiltBlast.chunkMessages)
      left -= n
      server.update { $0.blasted += n }
    }
  }

  /// Keeps trading after the script: a random walk of the subscribed symbols the script
  /// traded, in the venue's format, with the venue's own keepalive (Finnhub's ping every 60 s).
  /// With `acceptAnySymbol`, every other subscribed symbol the venue would trade joins the walk
  /// when it first appears in the subscription (also one added later).
  private func synthesize(seed: UInt64, interval: Double) {
    var walk = SyntheticTrades(seed: seed, start: session.lastPrices)
    let keepalive = session.syntheticKeepalive
    let acceptAnySymbol = server.options.acceptAnySymbol
    var sinceKeepalive = 0.0
    let milliseconds = Int(interval * 1000)
    while life.pause(milliseconds: milliseconds) {
      sinceKeepalive += interval
      let subscribed = session.subscribed
      if acceptAnySymbol {
        let newcomers = subscribed.filter { !walk.knows($0) }
        for (symbol, start) in session.walkStarts(for: newcomers) { walk.admit(symbol, from: start) }
      }
      let trades = walk.nextTrades(symbols: subscribed, elapsedMilliseconds: milliseconds)
      guard session.play(trades) else { return }
      if let keepalive, sinceKeepalive >= keepalive.seconds {
        sinceKeepalive = 0
        session.perform(keepalive.action)
      }
    }
  }

  /// Trades the subscribed symbols the venue would trade at the shared market's prices, with the
  /// venue's own keepalive: the demo's market, where every venue of a run trades around one walk.
  private func trade(in market: DemoMarket, interval: Double) {
    let provider = server.options.emulation.venue?.provider
    let venue = provider?.name ?? ""
    var trades = MarketTrades(seed: market.seed ^ FNV1a.hash("trades " + venue))
    let keepalive = session.syntheticKeepalive
    var sinceKeepalive = 0.0
    // The first trades go at once: a market is already trading when a client subscribes.
    var started = false
    while !started || life.pause(milliseconds: Int(interval * 1000)) {
      if started { sinceKeepalive += interval }
      started = true
      let tradable = session.tradables(provider)
      guard session.play(trades.next(tradable, venue: venue, in: market)) else { return }
      if let keepalive, sinceKeepalive >= keepalive.seconds {
        sinceKeepalive = 0
        session.perform(keepalive.action)
      }
    }
  }
}
