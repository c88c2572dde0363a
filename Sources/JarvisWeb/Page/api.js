// The page's only channel to `jarvis web`: intents go up as JSON, the view comes back, and
// one live stream per page carries every change.

let pageID = null;

export async function openPage() {
  const response = await fetch('api/pages', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  if (!response.ok) throw new Error(await refusal(response));
  const opened = await response.json();
  pageID = opened.page;
  return opened.view;
}

// A tab that goes says so, and its page closes at once: the server keeps a silent page for a
// day, for a tab the browser froze or a laptop that slept. Back from the back-forward cache,
// the tab's page is gone, so the tab loads again.
addEventListener('pagehide', () => {
  if (pageID) fetch(`api/pages/${pageID}/close`, { method: 'POST', keepalive: true }).catch(() => {});
});
addEventListener('pageshow', (event) => { if (event.persisted) location.reload(); });

// Why the server refused: its `error`, or the plain text of a refusal before any page.
async function refusal(response) {
  const text = await response.text();
  try {
    const failure = JSON.parse(text);
    return failure.error || text;
  } catch {
    return text;
  }
}

// Intents go one at a time, in the order the person made them: two requests in flight could
// reach the server the other way round (a dialog's "Delete" overtaken by its own closing).
let queue = Promise.resolve();

export function intent(name, fields = {}) {
  const posted = queue.then(() => post(name, fields));
  queue = posted.catch(() => {});
  return posted;
}

// The server closed this page: it was silent for a day, or 64 pages opened since it was
// last heard. Only a reload gives the tab a page again.
export class PageClosed extends Error {
  constructor() { super('jarvis web closed this page; reload the page'); }
}

async function post(name, fields) {
  const response = await fetch(`api/pages/${pageID}/intent`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ intent: name, ...fields }),
  });
  if (response.status === 404) throw new PageClosed();
  if (!response.ok) throw new Error(await refusal(response));
  return response.json();
}

export async function rows(from, count) {
  const response = await fetch(`api/pages/${pageID}/rows?from=${from}&count=${count}`);
  if (response.status === 404) throw new PageClosed();
  if (!response.ok) throw new Error(await refusal(response));
  return response.json();
}

// One live stream per browser, whatever the number of tabs: Chromium keeps at most six
// HTTP/1.1 connections to a server, and a stream held by each tab would take them all. The
// tab holding the `jarvis-live` lock (Web Locks) is the leader: it opens one stream for the
// pages every tab of this server announces on a BroadcastChannel and hands each tab its
// views; when it closes, another tab takes the lock and opens the stream again. A stream
// opened for pages the server closed names them in a `closed` event; the leader tells their
// tabs (`onClosed`), which then stop announcing themselves.
const announceEvery = 10_000;
const forgetAfter = 30_000;

export function live(onView, onDrop, onClosed) {
  if (!('BroadcastChannel' in self) || !navigator.locks) return ownStream(onView, onDrop, onClosed);
  const channel = new BroadcastChannel('jarvis-live');
  let shut = false;
  const announce = () => { if (!shut) channel.postMessage({ hello: pageID }); };
  const pageClosed = () => {
    if (shut) return;
    shut = true;
    clearInterval(announcing);
    onClosed();
  };
  let leader = null;
  channel.addEventListener('message', ({ data }) => {
    if (data.page === pageID && data.view) onView(data.view);
    if (data.closed?.includes(pageID)) pageClosed();
    if (data.who) announce();
    if (leader && data.hello) leader.heard(data.hello);
    if (leader && data.bye) leader.forget(data.bye);
    if (data.lost && !leader) onDrop({ readyState: EventSource.CLOSED });
  });
  announce();
  const announcing = setInterval(announce, announceEvery);
  // A tab the browser froze, or that was hidden, is heard again at once when it wakes.
  document.addEventListener('resume', announce);
  document.addEventListener('visibilitychange', () => { if (!document.hidden) announce(); });
  addEventListener('pagehide', () => {
    clearInterval(announcing);
    channel.postMessage({ bye: pageID });
  });
  navigator.locks.request('jarvis-live', () => new Promise(() => {
    leader = new Leader(channel, onView, onDrop, pageClosed);
    channel.postMessage({ who: true });
  }));
  return channel;
}

// A stream of this tab's page alone (a browser without BroadcastChannel or Web Locks).
function ownStream(onView, onDrop, onClosed) {
  const source = new EventSource(`api/pages/${pageID}/events`);
  source.addEventListener('view', (event) => {
    const sent = JSON.parse(event.data);
    onView(sent.view);
  });
  source.addEventListener('closed', () => {
    source.close();
    onClosed();
  });
  source.addEventListener('error', () => onDrop(source));
  return source;
}

// The leader's stream: the pages heard lately, one EventSource for them, opened again (the
// new one first) when the set changes. A page the server closed is never asked for again.
class Leader {
  constructor(channel, onView, onDrop, onClosed) {
    this.channel = channel;
    this.onView = onView;
    this.onDrop = onDrop;
    this.onClosed = onClosed;
    this.pages = new Map([[pageID, Infinity]]);
    this.closedPages = new Set();
    this.source = null;
    this.timer = null;
    this.reopen();
    setInterval(() => this.prune(), announceEvery);
  }

  heard(page) {
    if (this.closedPages.has(page)) return;
    const known = this.pages.has(page);
    if (page !== pageID) this.pages.set(page, Date.now());
    if (!known) this.reopen();
  }

  forget(page) {
    if (page !== pageID && this.pages.delete(page)) this.reopen();
  }

  prune() {
    const now = Date.now();
    let changed = false;
    for (const [page, seen] of this.pages) {
      if (now - seen > forgetAfter) { this.pages.delete(page); changed = true; }
    }
    if (changed) this.reopen();
  }

  // Coalesced: the tabs that answer `who` together cost one new stream.
  reopen() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.open(), 50);
  }

  open() {
    const older = this.source;
    if (!this.pages.size) {
      if (older) older.close();
      this.source = null;
      return;
    }
    const source = new EventSource(`api/stream?pages=${[...this.pages.keys()].join(',')}`);
    this.source = source;
    source.addEventListener('open', () => { if (older) older.close(); });
    source.addEventListener('view', (event) => {
      const sent = JSON.parse(event.data);
      if (sent.page === pageID) this.onView(sent.view); else this.channel.postMessage({ page: sent.page, view: sent.view });
    });
    // Sent first, when some of the pages asked for are not open (alone, the stream then ends).
    source.addEventListener('closed', (event) => {
      const closed = JSON.parse(event.data);
      for (const page of closed.pages) {
        this.closedPages.add(page);
        this.pages.delete(page);
      }
      if (closed.pages.includes(pageID)) this.onClosed();
      this.channel.postMessage({ closed: closed.pages });
      clearTimeout(this.timer);
      this.open();
    });
    source.addEventListener('error', () => {
      if (source !== this.source) return;
      this.onDrop(source);
      if (source.readyState === EventSource.CLOSED) this.channel.postMessage({ lost: true });
    });
  }
}
