import { Worker } from 'node:worker_threads';
const mb = () => Math.round(process.memoryUsage().rss / 1048576);
const mods = process.argv.slice(2);
const before = mb();
const w = new Worker(`const m=${JSON.stringify(mods)}; (async()=>{for (const x of m) await import(x); require('worker_threads').parentPort.postMessage('ok')})()`, { eval: true });
await new Promise((r) => w.on('message', r));
console.log(mods.join(',') || '(none)', 'worker delta', mb() - before, 'MB');
await w.terminate();
