// Records what the OpenTelemetry JavaScript SDK's own OTLP exporters send, as fixtures for
// vprof's receivers (java/src/test/resources/otlp/sdk). Run by record.sh; not part of the build.
//
// One set of spans (deterministic ids and times, vLLM-like attributes of every type) goes through
// each exporter at once: gRPC (plain and gzip), HTTP protobuf and HTTP JSON (plain and gzip). The
// HTTP exporters stream their bodies, so they arrive chunked; they are kept byte for byte as the
// SDK wrote them, request line, headers, chunk framing and all, by a plain TCP listener. The gRPC
// exporter speaks HTTP/2: its one message is kept with the gRPC metadata it came with. The spans
// themselves, as the SDK holds them, are written to spans.json: that is what vprof must decode.

import fs from 'node:fs';
import http2 from 'node:http2';
import net from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import { context, trace, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { OTLPTraceExporter as GrpcExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';

const out = process.argv[2];
if (!out) {
  console.error('usage: node record.mjs OUTPUT_DIR');
  process.exit(2);
}
fs.mkdirSync(out, { recursive: true });

// ---- listeners ----

/** An HTTP/1.1 listener that keeps each request's raw bytes and answers 200 with an empty body. */
function rawHttpRecorder(name) {
  return new Promise((resolve) => {
    const server = net.createServer((socket) => {
      let buf = Buffer.alloc(0);
      socket.on('data', (d) => {
        buf = Buffer.concat([buf, d]);
        const headEnd = buf.indexOf('\r\n\r\n');
        if (headEnd < 0) return;
        const head = buf.subarray(0, headEnd).toString('latin1');
        const chunked = /\r\ntransfer-encoding:\s*chunked/i.test(head);
        const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
        const body = buf.subarray(headEnd + 4);
        const complete = chunked ? body.includes(Buffer.from('0\r\n\r\n')) && body.subarray(-5).toString() === '0\r\n\r\n'
          : length ? body.length >= Number(length[1]) : true;
        if (!complete) return;
        fs.writeFileSync(path.join(out, `${name}.http`), buf);
        const type = /\r\ncontent-type:\s*([^\r]*)/i.exec(head)[1];
        socket.end(`HTTP/1.1 200 OK\r\nContent-Type: ${type}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
        buf = Buffer.alloc(0);
      });
    });
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

/** An h2c gRPC listener that keeps the Export message (inflated) and its metadata, and answers OK. */
function grpcRecorder(name) {
  return new Promise((resolve) => {
    const server = http2.createServer();
    server.on('stream', (stream, headers) => {
      const chunks = [];
      stream.on('data', (c) => chunks.push(c));
      stream.on('end', () => {
        const frame = Buffer.concat(chunks);
        const compressed = frame[0] === 1;
        const length = frame.readUInt32BE(1);
        let message = frame.subarray(5, 5 + length);
        if (compressed) message = zlib.gunzipSync(message);
        fs.writeFileSync(path.join(out, `${name}.bin`), message);
        fs.writeFileSync(path.join(out, `${name}.json`), JSON.stringify({
          path: headers[':path'],
          content_type: headers['content-type'],
          grpc_encoding: headers['grpc-encoding'] ?? null,
          compressed_on_the_wire: compressed,
          wire_length: length,
          user_agent: headers['user-agent'],
        }, null, 2) + '\n');
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
        stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
        stream.end(Buffer.from([0, 0, 0, 0, 0])); // an empty ExportTraceServiceResponse
      });
    });
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

const listeners = {
  'http-json': await rawHttpRecorder('http-json'),
  'http-json-gzip': await rawHttpRecorder('http-json-gzip'),
  'http-proto': await rawHttpRecorder('http-proto'),
  'http-proto-gzip': await rawHttpRecorder('http-proto-gzip'),
  grpc: await grpcRecorder('grpc'),
  'grpc-gzip': await grpcRecorder('grpc-gzip'),
};
const port = (n) => listeners[n].address().port;

const exporters = [
  new JsonExporter({ url: `http://127.0.0.1:${port('http-json')}/v1/traces` }),
  new JsonExporter({ url: `http://127.0.0.1:${port('http-json-gzip')}/v1/traces`, compression: 'gzip' }),
  new ProtoExporter({ url: `http://127.0.0.1:${port('http-proto')}/v1/traces` }),
  new ProtoExporter({ url: `http://127.0.0.1:${port('http-proto-gzip')}/v1/traces`, compression: 'gzip' }),
  new GrpcExporter({ url: `http://127.0.0.1:${port('grpc')}` }),
  new GrpcExporter({ url: `http://127.0.0.1:${port('grpc-gzip')}`, compression: 'gzip' }),
];

// ---- the spans ----

let nextTrace = 0x4bf92f3577b34da6a3ce929d0e0e4736n;
let nextSpan = 0x00f067aa0ba902b7n;
const idGenerator = {
  generateTraceId: () => (nextTrace++).toString(16).padStart(32, '0'),
  generateSpanId: () => (nextSpan++).toString(16).padStart(16, '0'),
};
const memory = new InMemorySpanExporter();
const provider = new TracerProvider({
  resource: resourceFromAttributes({ 'service.name': 'vllm', 'service.version': '0.11.0', 'host.name': 'gpu-node-7' }),
  idGenerator,
  spanProcessors: [new SimpleSpanProcessor({ exporter: memory }),
    ...exporters.map((exporter) => new BatchSpanProcessor({ exporter, scheduledDelayMillis: 600000,
      maxExportBatchSize: 1000, maxQueueSize: 1000 }))],
});

const T = 1760000000; // whole seconds of every start; nanoseconds vary
const at = (ns) => [T + Math.floor(ns / 1e9), ns % 1e9];

const api = provider.getTracer('vllm.entrypoints.openai', '0.11.0');
const engine = provider.getTracer('vllm.v1.engine');

for (let i = 0; i < 3; i++) {
  const base = i * 2_000_000_000 + 123_456_789;
  const root = api.startSpan('POST /v1/completions', {
    kind: SpanKind.SERVER,
    startTime: at(base),
    attributes: { 'http.request.method': 'POST', 'url.path': '/v1/completions', 'http.response.status_code': 200 },
  });
  const ctx = trace.setSpan(context.active(), root);
  const queue = 0.0125 + i * 0.5;
  const prefill = 0.0333;
  const decode = 0.2981;
  const req = engine.startSpan('llm_request', {
    kind: SpanKind.INTERNAL,
    startTime: at(base + 1_000_000),
    attributes: {
      'gen_ai.request.id': `cmpl-${i + 1}`,
      'gen_ai.response.model': 'Qwen/Qwen2.5-7B-Instruct',
      'gen_ai.usage.prompt_tokens': 812 + i,
      'gen_ai.usage.completion_tokens': 48,
      'gen_ai.request.max_tokens': 48,
      'gen_ai.request.temperature': 0.7,
      'gen_ai.latency.time_in_queue': queue,
      'gen_ai.latency.time_to_first_token': queue + prefill,
      'gen_ai.latency.time_in_model_prefill': prefill,
      'gen_ai.latency.time_in_model_decode': decode,
      'gen_ai.latency.e2e': queue + prefill + decode,
      'gen_ai.latency.whole_seconds': 1,
      'finish_reason': 'length',
      'stream': true,
      'token_ids.first': [151644, 8948, 198],
      'stop': ['</s>', '\n\n'],
      'logprobs.top': [-0.25, -1.5],
      'flags': [true, false],
      'note': 'ünïcödé 日本語 🚀 "quoted" \\ back\nline',
      'empty': '',
      'big': Number.MAX_SAFE_INTEGER,
      'negative': -42,
    },
  }, ctx);
  req.addEvent('first_token', { index: 0 }, at(base + 1_000_000 + Math.round((queue + prefill) * 1e9)));
  req.end(at(base + 1_000_000 + Math.round((queue + prefill + decode) * 1e9)));
  if (i === 2) {
    const failed = api.startSpan('POST /v1/completions', {
      kind: SpanKind.SERVER, startTime: at(base + 5_000_000),
      links: [{ context: req.spanContext(), attributes: { 'link.kind': 'retry-of' } }],
    });
    failed.setStatus({ code: SpanStatusCode.ERROR, message: 'deadline exceeded' });
    failed.end(at(base + 5_000_000)); // zero length
  }
  root.setStatus({ code: SpanStatusCode.OK });
  root.end(at(base + 400_000_000));
}
const client = api.startSpan('GET /metrics', { kind: SpanKind.CLIENT, startTime: at(9_000_000_000) });
client.end(at(9_000_500_000));
for (const kind of [SpanKind.PRODUCER, SpanKind.CONSUMER]) {
  const s = engine.startSpan(kind === SpanKind.PRODUCER ? 'enqueue' : 'dequeue', { kind, startTime: at(9_100_000_000) });
  s.end(at(9_100_000_001));
}

await provider.forceFlush();

// ---- what the SDK holds: the oracle for every fixture ----

const nanos = (hr) => (BigInt(hr[0]) * 1000000000n + BigInt(hr[1])).toString();
const typed = (v) => {
  if (Array.isArray(v)) return { type: 'array', value: v.map(typed) };
  if (typeof v === 'string') return { type: 'string', value: v };
  if (typeof v === 'boolean') return { type: 'bool', value: v };
  // The OTLP transformer writes a whole number as int_value, any other as double_value.
  if (Number.isInteger(v)) return { type: 'int', value: String(v) };
  return { type: 'double', value: v };
};
const spans = memory.getFinishedSpans().map((s) => ({
  trace_id: s.spanContext().traceId,
  span_id: s.spanContext().spanId,
  parent_span_id: s.parentSpanContext?.spanId ?? '',
  name: s.name,
  kind: s.kind + 1, // the API's SpanKind starts at INTERNAL = 0; OTLP's at UNSPECIFIED = 0
  start_time_unix_nano: nanos(s.startTime),
  end_time_unix_nano: nanos(s.endTime),
  attributes: Object.entries(s.attributes).map(([key, value]) => ({ key, ...typed(value) })),
  status_code: s.status.code,
  status_message: s.status.message ?? '',
  service_name: s.resource.attributes['service.name'],
  scope_name: s.instrumentationScope.name,
  scope_version: s.instrumentationScope.version ?? '',
}));
fs.writeFileSync(path.join(out, 'spans.json'), JSON.stringify({
  recorded_with: Object.fromEntries(['api', 'sdk-trace', 'exporter-trace-otlp-grpc', 'exporter-trace-otlp-http',
    'exporter-trace-otlp-proto'].map((p) => [p, JSON.parse(fs.readFileSync(
    new URL(`./node_modules/@opentelemetry/${p}/package.json`, import.meta.url))).version])),
  spans,
}, null, 2) + '\n');

await provider.shutdown();
for (const l of Object.values(listeners)) l.close();
console.log(`recorded ${spans.length} spans through ${exporters.length} exporters into ${out}`);
