// The reference of the relay list benchmark: Express 5 alone, answering every request with the bytes
// the product answered, behind as many routes as the product mounts. Run by api.bench.ts in a
// process of its own; prints its port once listening.
import { readFileSync } from 'node:fs';
import express from 'express';

const [bodyFile, routeCount] = process.argv.slice(2);
const body = readFileSync(bodyFile);
const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.use(express.json());
const router = express.Router();
for (let i = 0; i < Number(routeCount); i += 1) router.get(`/api/other${i}/:id`, (_req, res) => res.send('x'));
router.get('/api/relays', (_req, res) => res.status(200).type('application/json').send(body));
app.use(router);
const server = app.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
