// The key table: a virtualised grid. Only the rows in sight exist in the page; they are
// fetched from `jarvis web` a window at a time, so 100,000 keys open and scroll smoothly.

import * as api from './api.js';
import { el, clear, $ } from './dom.js';

const ROW_HEIGHT = 28;
const WINDOW = 200;
const FLAG_NAMES = {
  default: 'default', unset: 'unset', secret: 'secret', revealed: 'revealed', 'read-only': 'read-only',
  encoded: 'encoded', placeholder: 'placeholder', changed: 'changed',
};

export class KeyTable {
  constructor({ onOpen, onCursor, onEdit }) {
    this.grid = $('grid');
    this.viewport = $('viewport');
    this.spacer = $('spacer');
    this.empty = $('empty');
    this.onOpen = onOpen;
    this.onEdit = onEdit;
    this.onCursor = onCursor;
    this.total = 0;
    this.version = -1;
    this.revision = 0;
    this.cache = new Map();
    this.loading = new Set();
    this.cursor = 0;
    this.selectedID = null;
    this.viewport.addEventListener('scroll', () => this.draw());
    window.addEventListener('resize', () => this.draw());
    this.grid.addEventListener('keydown', (event) => this.key(event));
    this.grid.addEventListener('focus', () => this.draw());
  }

  // The model's table changed: its version, its number of rows, and the rows changed in
  // place since the view before (only those are drawn again). A page that missed a view
  // forgets its rows and asks for those in sight.
  update(table, selectedID, emptyText) {
    this.selectedID = selectedID;
    if (table.version !== this.version) {
      this.version = table.version;
      this.revision = table.revision;
      this.cache.clear();
    } else if (table.revision > this.revision) {
      if (table.from === this.revision) {
        for (const patch of table.patches) if (this.cache.has(patch.index)) this.cache.set(patch.index, patch.row);
      } else {
        this.cache.clear();
      }
      this.revision = table.revision;
    }
    this.total = table.total;
    this.grid.setAttribute('aria-rowcount', String(this.total + 1));
    this.spacer.style.height = `${this.total * ROW_HEIGHT}px`;
    if (this.cursor >= this.total) this.cursor = Math.max(0, this.total - 1);
    this.empty.hidden = this.total > 0;
    this.empty.textContent = emptyText;
    $('count').textContent = `${this.total.toLocaleString('en-US')} key${this.total === 1 ? '' : 's'}`;
    this.draw();
  }

  range() {
    const height = this.viewport.clientHeight || 600;
    const first = Math.max(0, Math.floor(this.viewport.scrollTop / ROW_HEIGHT) - 10);
    const last = Math.min(this.total, Math.ceil((this.viewport.scrollTop + height) / ROW_HEIGHT) + 10);
    return [first, last];
  }

  draw() {
    const [first, last] = this.range();
    const missing = [];
    for (let index = first; index < last; index++) if (!this.cache.has(index)) missing.push(index);
    if (missing.length) this.load(missing[0]);
    const keep = new Set();
    for (let index = first; index < last; index++) {
      const row = this.cache.get(index);
      const id = `row-${index}`;
      keep.add(id);
      let node = document.getElementById(id);
      const signature = row ? JSON.stringify(row) + (row.id === this.selectedID) + (index === this.cursor) : 'loading';
      if (node && node.dataset.signature === signature) continue;
      const fresh = this.render(index, row);
      fresh.dataset.signature = signature;
      if (node) node.replaceWith(fresh); else this.viewport.append(fresh);
    }
    for (const node of [...this.viewport.querySelectorAll('.row')]) if (!keep.has(node.id)) node.remove();
    const active = this.cache.get(this.cursor);
    if (active && document.getElementById(`row-${this.cursor}`)) this.grid.setAttribute('aria-activedescendant', `row-${this.cursor}`);
    else this.grid.removeAttribute('aria-activedescendant');
  }

  async load(index) {
    const start = Math.floor(index / WINDOW) * WINDOW;
    if (this.loading.has(start)) return;
    this.loading.add(start);
    try {
      const answer = await api.rows(start, WINDOW);
      // An answer older than the table drawn now is dropped, but the window is still asked
      // again below: the newer request was skipped while this one was on its way.
      const newer = answer.version > this.version || (answer.version === this.version && answer.revision > this.revision);
      if (newer || (answer.version === this.version && answer.revision === this.revision)) {
        if (newer) {
          this.version = answer.version;
          this.revision = answer.revision;
          this.cache.clear();
        }
        this.total = answer.total;
        answer.rows.forEach((row, offset) => this.cache.set(answer.from + offset, row));
      }
    } catch (error) {
      $('message').textContent = String(error.message || error);
    } finally {
      this.loading.delete(start);
    }
    this.draw();
  }

  render(index, row) {
    const top = `${index * ROW_HEIGHT}px`;
    if (!row) {
      const waiting = el('div', { id: `row-${index}`, class: 'row loading', role: 'row', 'aria-rowindex': index + 2 },
        el('span', { class: 'cell key', role: 'gridcell', text: '…' }));
      waiting.style.top = top;
      return waiting;
    }
    const flags = row.flags.map((flag) => el('span', { class: `flag flag-${flag}`, text: FLAG_NAMES[flag] || flag }));
    const value = row.old != null
      ? [el('span', { class: 'old', text: row.old }), el('span', { class: 'arrow', text: ' → ' }), el('span', { text: row.preview })]
      : [row.preview];
    const node = el('div', {
      id: `row-${index}`,
      class: `row${row.id === this.selectedID ? ' selected' : ''}${index === this.cursor ? ' cursor' : ''}${row.flags.includes('changed') ? ' changed' : ''}`,
      role: 'row',
      'aria-rowindex': index + 2,
      'aria-selected': row.id === this.selectedID ? 'true' : 'false',
      onclick: () => { this.cursor = index; this.onOpen(row); },
      // Double-click edits, as in DevTools' storage tables.
      ondblclick: () => { this.cursor = index; this.onEdit?.(row); },
    },
    el('span', { class: 'cell key', role: 'gridcell' },
      el('span', { class: 'key-name', text: row.key }),
      row.container ? el('span', { class: 'container-name', text: row.container }) : null),
    el('span', { class: 'cell type', role: 'gridcell', text: row.type || '' }),
    el('span', { class: 'cell value', role: 'gridcell' }, ...value),
    el('span', { class: 'cell flags', role: 'gridcell' }, ...flags));
    node.style.top = top;
    return node;
  }

  rowAt(index) { return this.cache.get(index); }

  move(to) {
    if (this.total === 0) return;
    this.cursor = Math.max(0, Math.min(this.total - 1, to));
    const top = this.cursor * ROW_HEIGHT;
    const height = this.viewport.clientHeight;
    if (top < this.viewport.scrollTop) this.viewport.scrollTop = top;
    else if (top + ROW_HEIGHT > this.viewport.scrollTop + height) this.viewport.scrollTop = top + ROW_HEIGHT - height;
    this.draw();
    this.onCursor(this.cache.get(this.cursor));
  }

  key(event) {
    const page = Math.max(1, Math.floor(this.viewport.clientHeight / ROW_HEIGHT) - 1);
    switch (event.key) {
      case 'ArrowDown': this.move(this.cursor + 1); break;
      case 'ArrowUp': this.move(this.cursor - 1); break;
      case 'PageDown': this.move(this.cursor + page); break;
      case 'PageUp': this.move(this.cursor - page); break;
      case 'Home': this.move(0); break;
      case 'End': this.move(this.total - 1); break;
      case 'Enter': {
        const row = this.cache.get(this.cursor);
        if (row) this.onOpen(row);
        break;
      }
      default: return;
    }
    event.preventDefault();
  }

  focus() { this.grid.focus(); }

  // The list from its first row, the cursor on it (after a new order).
  toTop() {
    this.cursor = 0;
    this.viewport.scrollTop = 0;
    this.draw();
  }

  // Scrolls to the end and back a window at a time; resolves when every row has been drawn.
  clearCache() { this.cache.clear(); }
}

export function emptyText(view) {
  if (!view.agent) return view.connection?.message || 'No agent is open.';
  const on = view.chips.filter((chip) => chip.on);
  if (!view.filter && on.length === 1 && on[0].id === 'changed') return 'No key has changed since this page opened.';
  if (view.filter || on.length > 0) return 'No keys match the filter.';
  return 'No keys here.';
}
export { clear };
