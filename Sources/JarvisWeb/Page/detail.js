// The detail pane: facts, the value as a tree (opened a level at a time) and as JSON, the
// editor the model chose, a conflict's three values, and what may be copied.

import * as api from './api.js';
import { el, button, clear, $ } from './dom.js';

export class DetailPane {
  constructor(app) {
    this.app = app;
    this.root = $('detail');
    this.tab = 'tree';
    this.draftSignature = null;
    this.detailSignature = null;
    this.checkTimer = null;
  }

  render(view) {
    const draft = view.draft;
    // While editing, the editor depends on the draft alone: a change elsewhere in the value
    // must not redraw it under the person's hands.
    const signature = draft
      ? JSON.stringify([view.conflict, { ...draft, text: null, error: null }])
      : JSON.stringify([view.detail, view.canEdit, this.tab]);
    if (draft && this.draftSignature === signature) {
      // The user is typing: only the error under the field changes.
      const error = this.root.querySelector('.draft-error');
      if (error) error.textContent = draft.error || '';
      this.root.querySelector('.editor-field')?.setAttribute('aria-invalid', draft.error ? 'true' : 'false');
      return;
    }
    if (!draft && this.detailSignature === signature) return;
    // What the person typed survives a redraw of the same draft (a conflict arriving).
    const typed = draft && this.draftTitle === draft.title ? this.readField?.() : undefined;
    this.draftSignature = draft ? signature : null;
    this.detailSignature = signature;
    this.draftTitle = draft ? draft.title : null;
    clear(this.root);
    if (view.conflict) this.root.append(this.conflict(view.conflict));
    if (draft) {
      this.root.append(this.editor(typed === undefined ? draft : { ...draft, text: typed }));
      return;
    }
    this.readField = null;
    const detail = view.detail;
    if (!detail) {
      this.root.append(el('p', { class: 'hint', text: view.agent ? 'Choose a key to see its value.' : '' }));
      return;
    }
    this.root.append(el('h2', { class: 'detail-title', text: detail.title }));
    const actions = el('div', { class: 'actions', role: 'toolbar', 'aria-label': 'Actions' });
    if (detail.actions.edit) actions.append(button('Edit', () => this.app.send('edit', { target: detail.row.target })));
    if (detail.actions.reveal) actions.append(button('Reveal', () => this.app.confirmReveal(detail)));
    if (detail.actions.reset) actions.append(button('Reset to default', () => this.app.send('reset', { target: detail.row.target })));
    if (detail.actions.delete) actions.append(button('Delete', () => this.app.confirmDelete(detail)));
    if (actions.childElementCount) this.root.append(actions);
    const facts = el('dl', { class: 'facts' });
    for (const fact of detail.facts) facts.append(el('dt', { text: fact.label }), el('dd', { text: fact.text }));
    this.root.append(facts);
    if (detail.note) this.root.append(el('p', { class: 'note', text: detail.note }));
    if (detail.value !== null) this.root.append(this.value(detail));
    if (detail.copy) this.root.append(this.copies(detail.copy));
  }

  value(detail) {
    const box = el('section', { class: 'value-box', 'aria-label': 'Stored value' });
    if (detail.tree) {
      const tabs = el('div', { role: 'tablist', class: 'tabs', 'aria-label': 'Show the value as' });
      for (const [id, label] of [['tree', 'Tree'], ['json', 'JSON']]) {
        tabs.append(el('button', {
          type: 'button', role: 'tab', text: label, 'aria-selected': this.tab === id ? 'true' : 'false',
          onclick: () => { this.tab = id; this.detailSignature = null; this.render(this.app.view); },
        }));
      }
      box.append(tabs);
      if (this.tab === 'tree') {
        const tree = el('ul', { role: 'tree', class: 'tree', 'aria-label': 'Value tree' });
        box.append(tree);
        this.members(detail.row.target, tree, 1);
        return box;
      }
    }
    box.append(el('pre', { class: 'raw', tabindex: '0', 'aria-label': 'Value as text', text: detail.json ?? detail.value }));
    return box;
  }

  // One level of the tree, asked of the model when it is opened.
  async members(target, list, level) {
    let answer;
    try {
      answer = await api.intent('members', { target });
    } catch (error) {
      list.append(el('li', { class: 'error', text: String(error.message || error) }));
      return;
    }
    for (const row of answer.members || []) {
      const label = el('span', { class: 'tree-label' },
        el('span', { class: 'tree-key', text: row.key }),
        el('span', { class: 'tree-type', text: row.type }),
        row.openable ? el('span', { class: 'tree-count', text: `${row.count} item${row.count === 1 ? '' : 's'}` })
          : el('span', { class: 'tree-preview', text: row.preview }));
      const item = el('li', { role: 'treeitem', 'aria-level': level, tabindex: '-1', 'aria-label': row.key, dataset: { pointer: row.target.p } }, label);
      if (row.openable) {
        item.setAttribute('aria-expanded', 'false');
        const toggle = () => {
          const open = item.getAttribute('aria-expanded') === 'true';
          item.setAttribute('aria-expanded', open ? 'false' : 'true');
          item.querySelector(':scope > ul')?.remove();
          if (!open) {
            const group = el('ul', { role: 'group' });
            item.append(group);
            this.members(row.target, group, level + 1);
          }
        };
        label.addEventListener('click', (event) => { event.stopPropagation(); toggle(); });
        item.addEventListener('keydown', (event) => {
          if (event.target !== item) return;
          if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') { event.preventDefault(); event.stopPropagation(); toggle(); }
        });
      } else {
        label.addEventListener('click', (event) => { event.stopPropagation(); this.app.send('open', { target: row.target }); });
      }
      item.addEventListener('keydown', (event) => {
        if (event.target !== item) return;
        if (event.key === 'Enter') { event.preventDefault(); event.stopPropagation(); this.app.send('open', { target: row.target }); }
        if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
          event.preventDefault();
          event.stopPropagation();
          const items = [...this.root.querySelectorAll('[role=treeitem]')];
          const next = items[items.indexOf(item) + (event.key === 'ArrowDown' ? 1 : -1)];
          next?.focus();
        }
      });
      list.append(item);
    }
    if (answer.more) list.append(el('li', { class: 'hint', text: `and ${answer.more} more (narrow with the filter or open the JSON)` }));
  }

  copies(copy) {
    const box = el('div', { class: 'copies', role: 'group', 'aria-label': 'Copy' });
    const put = (label, text) => {
      if (text === null || text === undefined) return;
      box.append(button(label, async () => {
        try {
          await navigator.clipboard.writeText(text);
          this.app.say(`copied ${label.replace('Copy ', '')}`, 'info');
        } catch {
          this.app.say('the browser refused the clipboard', 'error');
        }
      }));
    };
    put('Copy key', copy.key);
    put('Copy value', copy.value);
    put('Copy JSON pointer', copy.pointer);
    put('Copy jarvis set command', copy.command);
    return box;
  }

  editor(draft) {
    const form = el('form', { class: 'editor', 'aria-label': `Edit ${draft.title}` });
    form.addEventListener('submit', (event) => { event.preventDefault(); this.app.send('save', { text: read() }); });
    form.append(el('h2', { class: 'detail-title', text: draft.isNew ? `New key ${draft.title}` : `Edit ${draft.title}` }));
    const hintID = 'editor-hint';
    let field;
    let read;
    switch (draft.editor) {
      case 'toggle':
        field = el('input', { type: 'checkbox', role: 'switch', class: 'editor-field', 'aria-label': 'Value', 'aria-describedby': hintID });
        field.checked = draft.text.trim() === 'true';
        read = () => (field.checked ? 'true' : 'false');
        break;
      case 'integer':
      case 'real':
        field = el('input', {
          type: 'number', class: 'editor-field', 'aria-label': 'Value', 'aria-describedby': hintID,
          step: draft.editor === 'integer' ? '1' : 'any', min: draft.min, max: draft.max,
        });
        field.value = draft.text;
        read = () => field.value;
        break;
      case 'choice':
        field = el('select', { class: 'editor-field', 'aria-label': 'Value', 'aria-describedby': hintID });
        for (const choice of draft.choices) field.append(el('option', { value: choice, text: choice }));
        field.value = draft.text;
        read = () => field.value;
        break;
      case 'date':
        field = el('input', { type: 'text', class: 'editor-field', 'aria-label': 'Value', 'aria-describedby': hintID, spellcheck: 'false' });
        field.value = draft.text;
        read = () => field.value;
        break;
      default:
        field = el('textarea', {
          class: `editor-field${draft.editor === 'json' ? ' code' : ''}`, 'aria-label': 'Value', 'aria-describedby': hintID,
          rows: draft.editor === 'json' ? 14 : 4, spellcheck: 'false',
        });
        field.value = draft.text;
        read = () => field.value;
    }
    this.readField = read;
    const check = () => {
      clearTimeout(this.checkTimer);
      this.checkTimer = setTimeout(() => this.app.send('check', { text: read() }, { quiet: true }), 150);
    };
    field.addEventListener('input', check);
    field.addEventListener('change', check);
    field.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) { event.preventDefault(); this.app.send('save', { text: read() }); }
    });
    form.append(el('label', { class: 'hint', id: hintID, text: draft.hint }), field,
      el('p', { class: 'draft-error', role: 'alert', text: draft.error || '' }));
    form.append(el('div', { class: 'actions' },
      el('button', { type: 'submit', text: 'Save' }),
      button('Cancel', () => this.app.send('cancel'))));
    setTimeout(() => field.focus(), 0);
    return form;
  }

  conflict(conflict) {
    const box = el('section', { class: 'conflict', role: 'alert', 'aria-label': 'Conflict' },
      el('h2', { text: `${conflict.title} changed while you edited it` }),
      el('h3', { text: 'You started from' }), el('pre', { text: conflict.base }),
      el('h3', { text: 'Theirs (stored now)' }), el('pre', { text: conflict.theirs }),
      el('h3', { text: 'Yours' }), el('pre', { text: conflict.yours }),
      el('div', { class: 'actions' },
        button('Keep theirs', () => this.app.send('keepTheirs')),
        button('Write mine', () => this.app.send('writeMine'))));
    return box;
  }
}
