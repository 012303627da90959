// The job's own app for the self-test's tunnel job: answers every path with 200 on 127.0.0.1.
// Usage: node .github/self-test/app.mjs PORT
import { createServer } from 'node:http';

const port = Number(process.argv[2]);
createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end(`the job's own app answers ${req.url}\n`);
}).listen(port, '127.0.0.1', () => console.log(`app listening on http://127.0.0.1:${port}`));
