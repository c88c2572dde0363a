// The page's only channel to `jarvis web`: intents go up as JSON, the view comes back, and
// one live stream per page carries every change.

let pageID = null;

export async function openPage() {
  const answer = await fetch('api/pages', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  if (!answer.ok) throw new Error(await answer.text());
  const json = await answer.json();
  pageID = json.page;
  return json.view;
}

// Intents go one at a time, in the order the person made them: two requests in flight could
// reach the server the other way round (a dialog's "Delete" overtaken by its own closing).
let queue = Promise.resolve();

export function intent(name, fields = {}) {
  const sent = queue.then(() => post(name, fields));
  queue = sent.catch(() => {});
  return sent;
}

async function post(name, fields) {
  const answer = await fetch(`api/pages/${pageID}/intent`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ intent: name, ...fields }),
  });
  if (answer.status === 404) throw new Error('this page was closed by the server; reload the page');
  if (!answer.ok) throw new Error(await answer.text());
  return answer.json();
}

export async function rows(from, count) {
  const answer = await fetch(`api/pages/${pageID}/rows?from=${from}&count=${count}`);
  if (!answer.ok) throw new Error(await answer.text());
  return answer.json();
}

export function live(onView, onDrop) {
  const source = new EventSource(`api/pages/${pageID}/events`);
  source.addEventListener('view', (event) => onView(JSON.parse(event.data)));
  source.addEventListener('error', () => onDrop(source));
  return source;
}
