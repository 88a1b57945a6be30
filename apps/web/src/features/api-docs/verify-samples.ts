// Receivers that verify SchemaCheck webhooks, shown on /api-docs and run by
// apps/server/test/webhooks-samples.test.ts against real deliveries: each listens on PORT, checks
// the Standard Webhooks signature with the secret in SCHEMACHECK_WEBHOOK_SECRET, answers 204 and
// prints the event, or 400 for anything not signed with that secret. Standard library only.
// This module imports nothing, so that the server test can load it as it is.

export const VERIFY_SAMPLES: { language: 'python' | 'javascript'; label: string; code: string }[] =
  [
    {
      language: 'python',
      label: 'Python',
      code: `import base64, hashlib, hmac, json, os, time
from http.server import BaseHTTPRequestHandler, HTTPServer

SECRET = os.environ["SCHEMACHECK_WEBHOOK_SECRET"]  # whsec_...
KEY = base64.b64decode(SECRET.removeprefix("whsec_"))

def verify(headers, body: bytes) -> dict:
    msg_id = headers["webhook-id"]
    timestamp = headers["webhook-timestamp"]
    if abs(time.time() - int(timestamp)) > 300:
        raise ValueError("timestamp too far from now")
    signed = f"{msg_id}.{timestamp}.".encode() + body
    expected = base64.b64encode(hmac.new(KEY, signed, hashlib.sha256).digest()).decode()
    for signature in headers["webhook-signature"].split(" "):
        version, _, value = signature.partition(",")
        if version == "v1" and hmac.compare_digest(value, expected):
            return json.loads(body)
    raise ValueError("no valid signature")

class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["content-length"]))
        try:
            event = verify(self.headers, body)
        except (KeyError, ValueError):
            self.send_response(400)
            self.end_headers()
            return
        # webhook-id is the same on every retry: skip ids you have already handled.
        print(event["event"], event["data"].get("job_id"), flush=True)
        self.send_response(204)
        self.end_headers()

HTTPServer(("127.0.0.1", int(os.environ.get("PORT", "8000"))), Receiver).serve_forever()
`,
    },
    {
      language: 'javascript',
      label: 'JavaScript',
      code: `import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const secret = process.env.SCHEMACHECK_WEBHOOK_SECRET; // whsec_...
const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');

function verify(headers, body) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) {
    throw new Error('timestamp too far from now');
  }
  const expected = createHmac('sha256', key).update(\`\${id}.\${timestamp}.\${body}\`).digest();
  const valid = String(headers['webhook-signature'] ?? '')
    .split(' ')
    .some((signature) => {
      const [version, value] = signature.split(',');
      const given = Buffer.from(value ?? '', 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
  if (!valid) throw new Error('no valid signature');
  return JSON.parse(body);
}

createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    try {
      const event = verify(req.headers, body);
      // webhook-id is the same on every retry: skip ids you have already handled.
      console.log(event.event, event.data.job_id);
      res.writeHead(204).end();
    } catch {
      res.writeHead(400).end();
    }
  });
}).listen(Number(process.env.PORT ?? 8000), '127.0.0.1');
`,
    },
  ];
