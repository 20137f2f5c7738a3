#!/usr/bin/env node
// An independent WebSocket server (Node's `ws`, Debian's node-ws) for the native engine's
// permessage-deflate tests.
//
// Usage: node node_ws_peer.js [DEFLATE_JSON]
//   DEFLATE_JSON: ws's perMessageDeflate option as JSON (`true`, `false`, or an object such as
//   {"serverNoContextTakeover":true,"clientMaxWindowBits":10,"threshold":0}); default true.
// Prints "PORT <n>" once listening; for each connection "EXTENSIONS <json>" (the parameters ws
// agreed on, {} for none); echoes every message (text stays text, binary stays binary); after
// each connection ends, "CLOSED <code> <reason>". Serves until stdin closes.
'use strict';
let ws;
try {
  ws = require('ws');
} catch (e) {
  ws = require('/usr/share/nodejs/ws');
}

const deflate = process.argv.length > 2 ? JSON.parse(process.argv[2]) : true;
const server = new ws.WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: deflate, maxPayload: 64 << 20 });
server.on('listening', () => console.log(`PORT ${server.address().port}`));
server.on('connection', (socket) => {
  const agreed = socket._extensions['permessage-deflate'];
  console.log(`EXTENSIONS ${JSON.stringify(agreed ? agreed.params : {})}`);
  socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));
  socket.on('close', (code, reason) => console.log(`CLOSED ${code} ${reason.toString()}`));
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
