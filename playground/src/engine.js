// The page's side of the engine: a Web Worker (worker.js) that runs planlint, compiled once
// (the WebAssembly.Module is handed to each worker, so a new one starts in milliseconds).
//
// Work is cancelled on the next keystroke: `lint` supersedes the lint before it; one that has
// not started is dropped, and one that is still running when a newer text is waiting after
// `cancel_after_ms` has its worker terminated and a fresh one started (docs/playground.md).
// Every other request waits for the lint of the text it is about.

export class Engine {
  constructor({wasm_url = 'planlint-engine.wasm', worker_url = 'worker.js', cancel_after_ms = 250} = {}) {
    this.worker_url = worker_url;
    this.cancel_after_ms = cancel_after_ms;
    this.module = WebAssembly.compileStreaming(fetch(wasm_url));
    this.queue = [];        // {requests, resolve, reject, lint}
    this.running = null;    // the job the worker is on, with its start time
    this.next_id = 1;
    this.restarts = 0;
    this.ready = this.start();
  }

  async start() {
    const module = await this.module;
    const worker = new Worker(this.worker_url);
    this.worker = worker;
    await new Promise((resolve, reject) => {
      worker.onmessage = (event) => {
        if (event.data.ready) resolve();
        else reject(new Error(event.data.failed));
      };
      worker.onerror = (event) => reject(new Error(event.message));
      worker.postMessage({init: module});
    });
    worker.onmessage = (event) => this.answered(event.data);
  }

  /// Runs `requests` in order in the worker; resolves with their answers (and the time taken).
  /// A `lint` job drops the lint jobs queued before it (they resolve with null).
  call(requests, {lint = false} = {}) {
    return new Promise((resolve, reject) => {
      if (lint) {
        this.queue = this.queue.filter((job) => {
          if (!job.lint) return true;
          job.resolve(null);
          return false;
        });
        if (this.running && this.running.lint) this.watch(this.running);
      }
      this.queue.push({requests, resolve, reject, lint});
      this.pump();
    });
  }

  /// Terminates the worker if `job` still runs `cancel_after_ms` after it started.
  watch(job) {
    const left = this.cancel_after_ms - (performance.now() - job.started);
    clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => {
      if (this.running === job) this.restart(null);
    }, Math.max(0, left));
  }

  /// Ends the running job with `outcome` (null: cancelled) and starts a fresh worker.
  restart(outcome) {
    const job = this.running;
    clearTimeout(this.watchdog);
    this.worker.terminate();
    this.restarts += 1;
    this.running = null;
    job.resolve(outcome);
    this.ready = this.start();
    this.pump();
  }

  async pump() {
    if (this.running || this.queue.length === 0) return;
    const job = this.queue.shift();
    this.running = job;
    try {
      await this.ready;
    } catch (error) {
      this.running = null;
      job.reject(error);
      return;
    }
    job.id = this.next_id++;
    job.started = performance.now();
    this.worker.postMessage({id: job.id, requests: job.requests});
    if (job.lint && this.queue.some((queued) => queued.lint)) this.watch(job);
  }

  answered(message) {
    const job = this.running;
    if (!job || job.id !== message.id) return;
    if (message.failed) {
      // Every request of the job is answered with the engine's failure.
      this.restart({answers: job.requests.map(() => ({error: message.failed})), ms: 0});
      return;
    }
    clearTimeout(this.watchdog);
    this.running = null;
    job.resolve({answers: message.answers, ms: message.ms});
    this.pump();
  }
}
