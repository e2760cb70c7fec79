// A local HTTP server on 127.0.0.1 that plays recorded API responses in
// order and keeps every request, so a test drives the official SDK client
// over real HTTP and checks the wire format both ways. It serves only the
// responses it was given (then 500), and closes when the test does.
import { createServer } from 'node:http';

export async function replayServer(responses) {
  const requests = [];
  let next = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = text;
      }
      requests.push({ method: req.method, path: req.url, headers: req.headers, body });
      const reply = responses[next++];
      if (reply === undefined) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `replay server: no recorded response #${next}` } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get served() {
      return next;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
