// The browser inspector: draws the view `jarvis web` sends (the inspector model's rows,
// detail, draft and messages) and sends back what the person does. No decision the model
// makes is taken here.

import * as api from './api.js';
import { el, button, clear, $ } from './dom.js';
import { KeyTable, emptyText } from './table.js';
import { DetailPane } from './detail.js';
import * as dialogs from './dialogs.js';
import { drawComparison, chooseComparison } from './compare.js';

class App {
  constructor() {
    this.view = null;
    this.table = new KeyTable({
      onOpen: (row) => this.send('open', { target: row.target }),
      onCursor: () => {},
      onEdit: async (row) => {
        const view = await this.send('open', { target: row.target });
        if (view?.detail?.actions?.edit) this.send('edit', { target: row.target });
      },
    });
    this.detail = new DetailPane(this);
    this.filterTimer = null;
    this.stream = null;
    const filter = $('filter');
    filter.addEventListener('input', () => {
      clearTimeout(this.filterTimer);
      this.filterTimer = setTimeout(() => { this.filterTimer = null; this.send('filter', { text: filter.value }); }, 120);
    });
    filter.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') { event.preventDefault(); this.table.focus(); }
      if (event.key === 'ArrowDown' || event.key === 'Enter') { event.preventDefault(); this.table.focus(); }
    });
    // A header click sorts by its column; the model decides the order (a second click
    // reverses). The list then starts at its top, as a new order reads from its first row.
    for (const header of document.querySelectorAll('button.sort')) {
      header.addEventListener('click', async () => {
        if (await this.send('sort', { column: header.dataset.column })) this.table.toTop();
      });
    }
    $('help').addEventListener('click', () => dialogs.help());
    $('add').addEventListener('click', () => this.send('addStart'));
    $('delete-filtered').addEventListener('click', () => this.send('deletePreview'));
    $('compare').addEventListener('click', () => { if (this.view?.compareOffer) chooseComparison(this, this.view); });
    document.addEventListener('keydown', (event) => this.key(event));
    // Escape dismisses a question: the model forgets it. (The dialog's buttons say so themselves.)
    $('dialog').addEventListener('cancel', () => {
      if (this.view?.bulk) this.send('bulkCancel');
      if (this.view?.add) this.send('addCancel');
      if (this.view?.question) this.send('unask');
    });
  }

  async start() {
    // The one-time secret is spent: it leaves the address bar and the history.
    if (new URLSearchParams(location.search).has('k')) history.replaceState(null, '', location.pathname);
    try {
      this.draw(await api.openPage());
    } catch (error) {
      this.say(`cannot open the inspector: ${error.message || error}`, 'error');
      return;
    }
    this.connect();
  }

  connect() {
    this.stream = api.live((view) => this.draw(view), (source) => {
      if (source.readyState === EventSource.CLOSED && !this.closed) {
        this.say('the connection to jarvis web was lost; is it still running? Reload the page when it is.', 'error');
        $('live').textContent = 'disconnected';
      }
    }, () => this.pageClosed());
  }

  // The server closed this page (silent for a day, or 64 pages opened since it was heard):
  // nothing here is live any more and nothing more is sent or drawn, so what the person typed
  // stays in its field, to copy before reloading.
  pageClosed() {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.filterTimer);
    this.filterTimer = null;
    $('live').textContent = 'closed';
    $('live').dataset.state = 'closed';
    const gone = $('gone');
    gone.hidden = false;
    gone.textContent = 'jarvis web closed this page (it was not used for a long time, or many pages were opened since). '
      + 'Reload the page to go on; copy what you typed first.';
    document.body.classList.add('is-gone');
  }

  async send(intent, fields = {}, { quiet = false } = {}) {
    if (this.closed) {
      if (!quiet) this.say('jarvis web closed this page; nothing was sent. Copy what you typed, then reload the page.', 'error');
      return null;
    }
    if (intent === 'edit' || intent === 'addCreate' || intent === 'addElement') fields = { zone: browserZone(), ...fields };
    if (this.filterTimer && intent !== 'filter') {
      // What was typed in the filter goes first, so the next answer does not undo it.
      clearTimeout(this.filterTimer);
      this.filterTimer = null;
      await this.send('filter', { text: $('filter').value }, { quiet });
    }
    try {
      const view = await api.intent(intent, fields);
      this.draw(view);
      return view;
    } catch (error) {
      if (error instanceof api.PageClosed) this.pageClosed();
      if (!quiet) this.say(String(error.message || error), 'error');
      return null;
    }
  }

  say(text, kind, offer = null) {
    const line = $('message');
    line.textContent = text;
    line.dataset.kind = kind;
    // What the model offers beside it: Undo after a change made here, Redo after an undo.
    if (offer) line.append(' ', button(offer.label, () => this.send(offer.intent), { class: 'message-action' }));
  }

  draw(view) {
    if (this.closed || !view || (this.view && view.version < this.view.version)) return;
    const previous = this.view;
    this.view = view;
    $('agent-name').textContent = view.agent ? `${view.agent.name} · pid ${view.agent.pid} · ${view.agent.platform}` : 'no agent';
    const state = view.connection?.state;
    $('live').textContent = { live: '● live', gone: 'reconnecting…', static: 'not live', none: '' }[state] ?? '';
    $('live').dataset.state = state || 'none';
    const banner = $('banner');
    banner.hidden = !view.banner;
    banner.textContent = view.banner || '';
    const gone = $('gone');
    gone.hidden = state !== 'gone';
    gone.textContent = state === 'gone' ? view.connection.message : '';
    document.body.classList.toggle('is-gone', state === 'gone');
    const filter = $('filter');
    if (document.activeElement !== filter && !this.filterTimer && filter.value !== view.filter) filter.value = view.filter;
    $('add').hidden = !view.canEdit;
    $('delete-filtered').hidden = !view.canBulkDelete;
    $('compare').hidden = !view.compareOffer;
    drawComparison(this, view);
    this.drawChips(view);
    this.drawSort(view);
    this.drawSidebar(view);
    if (view.message) {
      const offer = view.message.offer ? { intent: view.message.offer, label: view.message.offerLabel } : null;
      this.say(view.message.text, view.message.kind, offer);
    }
    else if (!previous || previous.message || this.saidConnection) this.say(view.connection?.state === 'none' ? (view.connection.message || '') : '', 'info');
    // What the connection said stays only while there is no agent: nothing stale outlives a pick.
    this.saidConnection = !view.message && view.connection?.state === 'none' && !!view.connection.message;
    this.drawChooser(view);
    document.body.classList.toggle('has-detail', !!(view.detail || view.draft));
    const selectedID = view.detail ? view.detail.row.id : null;
    this.table.update(view.table, selectedID, emptyText(view));
    this.detail.render(view);
    if (view.bulk && !(previous && previous.bulk)) dialogs.bulkPreview(this, view.bulk);
    if (view.add && !(previous && previous.add)) dialogs.addKey(this, view.add);
    if (view.question && !(previous && previous.question)) dialogs.confirmSave(this, view.question, () => this.detail.readField());
  }

  drawChips(view) {
    const box = $('chips');
    const signature = JSON.stringify(view.chips);
    if (box.dataset.signature === signature) return;
    box.dataset.signature = signature;
    clear(box);
    for (const chip of view.chips) {
      box.append(el('button', {
        type: 'button', class: 'chip', text: chip.label, 'aria-pressed': chip.on ? 'true' : 'false',
        onclick: () => this.send('chip', { id: chip.id, on: !chip.on }),
      }));
    }
  }

  // Several agents run and none was named: a list to pick one from (name, pid, bundle id).
  drawChooser(view) {
    const box = $('chooser');
    const choosing = view.connection?.state === 'none' && view.connection.choose && view.agents.length > 0;
    box.hidden = !choosing;
    document.body.classList.toggle('is-choosing', choosing);
    const signature = choosing ? JSON.stringify(view.agents) : '';
    if (box.dataset.signature === signature) return;
    box.dataset.signature = signature;
    clear(box);
    if (!choosing) return;
    box.append(el('h2', { text: 'Several agents are running: choose one' }));
    const list = el('ul', { class: 'agents', 'aria-label': 'Running agents' });
    for (const agent of view.agents) {
      list.append(el('li', {}, el('button', {
        type: 'button', class: 'agent', 'aria-label': `${agent.title}, ${agent.subtitle}`,
        onclick: () => this.send('agent', { id: agent.id }),
      }, el('span', { class: 'name', text: agent.title }), el('span', { class: 'sub', text: `${agent.subtitle} · ${agent.group}` }))));
    }
    box.append(list);
  }

  drawSort(view) {
    const sort = view.sort || { column: 'key', descending: false };
    for (const header of document.querySelectorAll('button.sort')) {
      const on = header.dataset.column === sort.column;
      header.parentElement.setAttribute('aria-sort', on ? (sort.descending ? 'descending' : 'ascending') : 'none');
      header.dataset.arrow = on ? (sort.descending ? '↓' : '↑') : '';
    }
  }

  drawSidebar(view) {
    const side = $('sidebar');
    const signature = JSON.stringify([view.agents, view.scanners, view.scope, view.agent && view.agent.pid]);
    if (side.dataset.signature === signature) return;
    side.dataset.signature = signature;
    clear(side);
    side.append(el('h2', { text: 'Agents' }));
    const groups = new Map();
    for (const agent of view.agents) {
      if (!groups.has(agent.group)) groups.set(agent.group, []);
      groups.get(agent.group).push(agent);
    }
    for (const [group, agents] of groups) {
      side.append(el('h3', { class: 'group', text: group }));
      const list = el('ul', { class: 'agents', 'aria-label': group });
      for (const agent of agents) {
        list.append(el('li', {}, el('button', {
          type: 'button', class: 'agent', 'aria-current': agent.current ? 'true' : null,
          'aria-label': `${agent.title}, ${agent.subtitle}`,
          onclick: () => this.send('agent', { id: agent.id }),
        }, el('span', { class: 'name', text: agent.title }), el('span', { class: 'sub', text: agent.subtitle }))));
      }
      side.append(list);
    }
    if (!view.agents.length) side.append(el('p', { class: 'hint', text: 'No agent is running. Start your app or `jarvis demo`.' }));
    if (!view.agent) return;
    side.append(el('h2', { text: 'Storage' }));
    const tree = el('ul', { class: 'scopes' });
    const scope = view.scope || {};
    const total = view.scanners.reduce((sum, scanner) => sum + scanner.count, 0);
    const item = (label, count, current, fields, problem, depth, sizeWarning) => el('li', {},
      el('button', {
        type: 'button', class: `scope depth-${depth}`, 'aria-current': current ? 'true' : null,
        'aria-label': `${label}, ${count} key${count === 1 ? '' : 's'}${problem ? `, ${problem}` : ''}${sizeWarning ? `, ${sizeWarning}` : ''}`,
        onclick: () => this.send('scope', fields),
      }, el('span', { class: 'name', text: label }), el('span', { class: 'badge', text: String(count) }),
      problem ? el('span', { class: 'problem', text: problem }) : null,
      sizeWarning ? el('span', { class: 'size-warning', text: sizeWarning }) : null));
    tree.append(item('All keys', total, !scope.scanner && !scope.container, {}, null, 0));
    for (const scanner of view.scanners) {
      tree.append(item(scanner.title, scanner.count, scope.scanner === scanner.id && !scope.container, { scanner: scanner.id }, scanner.problem, 1));
      for (const container of scanner.containers) {
        tree.append(item(container.title ?? container.name, container.count, scope.scanner === scanner.id && scope.container === container.name,
          { scanner: scanner.id, container: container.name }, container.problem, 2, container.sizeWarning));
      }
    }
    side.append(tree);
  }

  // Up one level inside the value, then from the key back to the table (Esc, or the button
  // above the detail).
  up() {
    const target = this.view?.detail?.row.target;
    if (!target) return;
    if (target.p) this.send('open', { target: { ...target, p: target.p.split('/').slice(0, -1).join('/') } });
    else this.send('close');
  }

  // A single delete asks nothing: it is said at once, with Undo beside it.
  delete(detail) { this.send('delete', { target: detail.row.target }); }
  confirmReveal(detail) { dialogs.confirmReveal(this, detail); }

  key(event) {
    const target = event.target;
    const typing = target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
    if (event.key === '?' && dialogs.isHelpOpen()) { event.preventDefault(); dialogs.closeDialog(); return; }
    if ($('dialog').open) return;
    if (event.key === 'Escape') {
      if (this.view?.draft) { event.preventDefault(); this.send('cancel'); this.table.focus(); return; }
      if (typing) return;
      if (this.view?.detail) {
        event.preventDefault();
        this.up();
        this.table.focus();
      }
      return;
    }
    if (typing || event.metaKey || event.ctrlKey || event.altKey) return;
    if (event.key === '?') { event.preventDefault(); dialogs.help(); return; }
    if (event.key === '/') { event.preventDefault(); $('filter').focus(); $('filter').select(); return; }
    // As in the terminal: Space makes the row's quick edit (a button keeps Space for itself),
    // `a` adds an element to an array.
    const actions = this.view?.detail?.actions;
    if (event.key === ' ' && actions?.quickEdit && !(target instanceof HTMLButtonElement)) {
      event.preventDefault();
      this.send('quickEdit', { target: this.view.detail.row.target, kind: actions.quickEdit.kind });
      return;
    }
    if (event.key === 'a' && actions?.addElement) {
      event.preventDefault();
      this.send('addElement', { target: this.view.detail.row.target });
      return;
    }
    if (event.key === 'e' && this.view?.detail?.actions.edit) {
      event.preventDefault();
      this.send('edit', { target: this.view.detail.row.target });
    }
  }
}

// The time zone this browser shows dates in: a date editor starts in it.
function browserZone() {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const app = new App();
app.start();
