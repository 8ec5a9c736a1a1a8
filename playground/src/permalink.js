// The permalink: the plan, deflated (the browser's own CompressionStream) and base64url-encoded,
// in the URL fragment, which the browser never sends to a server. Reading one is bounded: a
// fragment past `max_fragment_chars`, or one that inflates past `max_plan_bytes` (the engine's
// file size limit, docs/hardening.md), is refused before it is held whole.

export const max_plan_bytes = 16 << 20;
export const max_fragment_chars = 8 << 20;
const prefix = '#plan=';

function to_base64url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function from_base64url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error('the link is not base64url');
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function pipe(bytes, stream, limit) {
  const reader = new Blob([bytes]).stream().pipeThrough(stream).getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const {done, value} = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel();
      throw new Error(`the plan in the link is over the ${limit >> 20} MiB size limit`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/// The fragment that carries `text`.
export async function encode_plan(text) {
  const bytes = await pipe(new TextEncoder().encode(text), new CompressionStream('deflate-raw'), Infinity);
  return prefix + to_base64url(bytes);
}

/// The plan a fragment carries, null when it carries none; throws when it is not a plan link
/// that can be read (the message says why).
export async function decode_plan(fragment) {
  if (!fragment.startsWith(prefix)) return null;
  const payload = fragment.slice(prefix.length);
  if (payload.length > max_fragment_chars) throw new Error('the link is too long');
  const bytes = await pipe(from_base64url(payload), new DecompressionStream('deflate-raw'), max_plan_bytes);
  return new TextDecoder('utf-8', {fatal: false}).decode(bytes);
}
