/**
 * Server-Sent Events as the CLI reads them: the live event stream (GET /api/events) and a job's
 * log follow (GET /api/{kind}s/{id}/logs/follow). Parsed by the rules of the HTML standard: fields
 * `event`, `data` (several lines joined by "\n") and `id`; a line starting with ":" is a comment;
 * a blank line ends an event; an event without data is not dispatched.
 */

export interface SseEvent {
  /** The `event:` field; "message" when absent. */
  event: string;
  data: string;
  id?: string;
}

/** The events of one stream, as they arrive; ends when the stream ends. */
export async function* readSse(body: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | undefined;
  const chunks = body as AsyncIterable<Uint8Array>;
  for await (const chunk of chunks) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
      // A lone \r at the very end may be the first half of \r\n: wait for the next chunk.
      if (buffer[newline] === '\r' && newline === buffer.length - 1) break;
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
      if (line === '') {
        if (data.length) yield { event: event || 'message', data: data.join('\n'), ...(id !== undefined ? { id } : {}) };
        event = '';
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') id = value;
    }
  }
}
