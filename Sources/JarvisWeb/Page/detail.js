// The detail pane: facts, the value as a tree (opened a level at a time) and as JSON, the
// editor the model chose, a conflict's three values, and what may be copied.

import * as api from './api.js';
import { el, button, clear, $ } from './dom.js';
import { fleetSection } from './compare.js';

export class DetailPane {
  constructor(app) {
    this.app = app;
    this.root = $('detail');
    this.tab = 'tree';
    this.draftSignature = null;
    this.detailSignature = null;
    this.checkTimer = null;
    // The agents ticked for "Copy to…", kept while the comparison is redrawn.
    this.fleetChecked = new Set();
  }

  render(view) {
    const draft = view.draft;
    // While editing, the editor depends on the draft alone: a change elsewhere in the value
    // must not redraw it under the person's hands.
    // A date editor is drawn again only when its time zone changes (the model then shows the
    // same instant in the new zone); typing changes neither.
    const dateZone = draft?.date ? draft.date.zone : null;
    const signature = draft
      ? JSON.stringify([view.conflict, { ...draft, text: null, error: null, problem: null, date: dateZone }])
      : JSON.stringify([view.detail, view.timeline, view.canEdit, this.tab, !!view.fleet]);
    if (draft && this.draftSignature === signature) {
      // The user is typing: only the problem beside the field changes.
      this.showProblem?.(draft.problem);
      return;
    }
    if (!draft && this.detailSignature === signature) {
      // Only the comparison's lines changed: they alone are drawn again (a value's tree stays open).
      this.drawFleet(view);
      return;
    }
    // What the person typed survives a redraw of the same draft (a conflict arriving); a
    // date's field is filled again from the model, which has what was typed.
    const typed = draft && !draft.date && this.draftTitle === draft.title ? this.readField?.()?.text : undefined;
    this.draftSignature = draft ? signature : null;
    this.detailSignature = signature;
    this.draftTitle = draft ? draft.title : null;
    clear(this.root);
    this.fleetBox = null;
    if (view.conflict) this.root.append(this.conflict(view.conflict));
    if (draft) {
      this.root.append(this.editor(typed === undefined ? draft : { ...draft, text: typed }));
      return;
    }
    this.readField = null;
    this.showProblem = null;
    const detail = view.detail;
    if (!detail) {
      this.root.append(el('p', { class: 'hint', text: view.agent ? 'Choose a key to see its value.' : '' }));
      return;
    }
    // The way up, shown: to the parent member, or from the key back to the table (as Esc).
    const upLabel = detail.up ? `Up to ${detail.up}` : 'Back to the keys';
    this.root.append(el('nav', { class: 'crumbs', 'aria-label': 'Way up' },
      button(`← ${upLabel}`, () => this.app.up(), { class: 'up', title: 'Esc' }), el('kbd', { class: 'hint', text: 'Esc' })));
    this.root.append(el('h2', { class: 'detail-title', text: detail.title }));
    const toolbar = el('div', { class: 'actions', role: 'toolbar', 'aria-label': 'Actions' });
    if (detail.actions.edit) toolbar.append(button('Edit', () => this.app.send('edit', { target: detail.row.target })));
    const quick = detail.actions.quickEdit;
    if (quick) toolbar.append(button(quick.title, () => this.app.send('quickEdit', { target: detail.row.target, kind: quick.kind })));
    if (detail.actions.addElement) {
      toolbar.append(button(detail.actions.addElement, () => this.app.send('addElement', { target: detail.row.target })));
    }
    if (detail.actions.reveal) toolbar.append(button('Reveal', () => this.app.confirmReveal(detail)));
    if (detail.actions.replace) toolbar.append(button('Replace secret', () => this.app.send('replace', { target: detail.row.target })));
    if (detail.actions.reset) toolbar.append(button('Reset to default', () => this.app.send('reset', { target: detail.row.target })));
    if (detail.actions.delete) toolbar.append(button('Delete', () => this.app.delete(detail)));
    if (!view.fleet) toolbar.append(button('Compare on all agents', () => this.app.send('fleetKey', { target: detail.row.target })));
    if (toolbar.childElementCount) this.root.append(toolbar);
    const facts = el('dl', { class: 'facts' });
    for (const fact of detail.facts) facts.append(el('dt', { text: fact.label }), el('dd', { text: fact.text }));
    this.root.append(facts);
    if (detail.note) this.root.append(el('p', { class: 'note', text: detail.note }));
    if (detail.value !== null) this.root.append(this.value(detail));
    this.fleetBox = el('div', { class: 'fleet-box' });
    this.fleetSignature = null;
    this.root.append(this.fleetBox);
    this.drawFleet(view);
    if (detail.copy) this.root.append(this.copies(detail.copy));
    if (view.timeline) this.root.append(this.history(view.timeline));
  }

  // The key on every agent, under its detail, drawn again only when it changed.
  drawFleet(view) {
    if (!this.fleetBox) return;
    const signature = JSON.stringify(view.fleet);
    if (this.fleetSignature === signature) return;
    this.fleetSignature = signature;
    clear(this.fleetBox);
    if (view.fleet) this.fleetBox.append(fleetSection(this.app, view.fleet, this.fleetChecked));
    else this.fleetChecked.clear();
  }

  // The key's changes from the agent's journal, newest first, each with Revert (Redo for an
  // undo) where the model offers it.
  history(timeline) {
    const box = el('section', { class: 'history', 'aria-label': 'History' }, el('h3', { text: 'History' }));
    if (timeline.problem || !timeline.entries.length) {
      box.append(el('p', { class: 'hint', text: timeline.problem || 'No change to this key in the journal yet.' }));
      return box;
    }
    const list = el('ol', { class: 'timeline' });
    for (const entry of timeline.entries) {
      const item = el('li', {},
        el('span', { class: 'change', text: `#${entry.id} ${entry.what}${entry.pointer ? ` ${entry.pointer}` : ''}${entry.who === 'outside' ? '' : ` by ${entry.who}`}` }),
        el('span', { class: 'values', text: `${entry.before} → ${entry.after}` }),
        el('time', { datetime: entry.time, text: new Date(entry.time).toLocaleString() }));
      if (entry.state) item.append(el('span', { class: 'hint', text: entry.state }));
      if (entry.canRevert) {
        item.append(button(entry.revertLabel, () => this.app.send('revert', { id: entry.id }),
          { 'aria-label': `${entry.revertLabel} change ${entry.id}` }));
      }
      list.append(item);
    }
    box.append(list);
    return box;
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
    if (detail.tree && detail.jsonNote) box.append(el('p', { class: 'note', text: detail.jsonNote }));
    return box;
  }

  // One level of the tree, asked of the model when it is opened.
  async members(target, list, level, from = 0) {
    let answer;
    try {
      answer = await api.intent('members', { target, from });
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
    if (answer.more) {
      // The next window is asked for only when wanted.
      const count = answer.more.toLocaleString('en-US');
      const more = el('li', { class: 'hint' }, `${count} more member${answer.more === 1 ? '' : 's'} `);
      more.append(button('Show more members', () => {
        more.remove();
        this.members(target, list, level, answer.from + answer.members.length);
      }));
      list.append(more);
    }
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
    // The model checks the value (type, range, choices): the browser's own validation stays out.
    const form = el('form', { class: 'editor', 'aria-label': `Edit ${draft.title}`, novalidate: true });
    const submit = () => this.app.send('save', read());
    form.addEventListener('submit', (event) => { event.preventDefault(); submit(); });
    const heading = draft.replacesSecret ? `Replace secret ${draft.title}` : draft.isNew ? `New key ${draft.title}` : `Edit ${draft.title}`;
    form.append(el('h2', { class: 'detail-title', text: heading }));
    const hintID = 'editor-hint';
    const errorID = 'editor-problem';
    const described = `${hintID} ${errorID}`;
    let field;
    let read;
    const extra = [];
    switch (draft.editor) {
      case 'toggle':
        field = el('input', { type: 'checkbox', role: 'switch', class: 'editor-field', 'aria-label': 'Value', 'aria-describedby': described });
        field.checked = draft.text.trim() === 'true';
        read = () => ({ text: field.checked ? 'true' : 'false' });
        break;
      case 'integer':
      case 'real':
        field = el('input', {
          type: 'number', class: 'editor-field', 'aria-label': 'Value', 'aria-describedby': described,
          step: draft.editor === 'integer' ? '1' : 'any', min: draft.min, max: draft.max,
        });
        field.value = draft.text;
        read = () => ({ text: field.value });
        break;
      case 'choice':
        field = el('select', { class: 'editor-field', 'aria-label': 'Value', 'aria-describedby': described });
        for (const choice of draft.choices) field.append(el('option', { value: choice, text: choice }));
        field.value = draft.text;
        read = () => ({ text: field.value });
        break;
      case 'secret':
        field = el('input', {
          type: 'password', class: 'editor-field', 'aria-label': 'New secret', 'aria-describedby': described,
          autocomplete: 'new-password', spellcheck: 'false',
        });
        read = () => ({ text: field.value });
        break;
      case 'date':
        if (draft.date) {
          // A date and time to the second, read in the chosen time zone; the model converts.
          field = el('input', {
            type: 'datetime-local', class: 'editor-field', 'aria-label': 'Date and time', 'aria-describedby': described,
            step: draft.date.local.includes('.') ? '0.001' : '1',
          });
          field.value = draft.date.local;
          const zone = el('select', { class: 'editor-zone', 'aria-label': 'Time zone' });
          for (const name of draft.date.zones) zone.append(el('option', { value: name, text: name }));
          zone.value = draft.date.zone;
          zone.addEventListener('change', () => this.app.send('zone', { zone: zone.value, local: field.value }));
          extra.push(el('div', { class: 'date-zone' }, zone, el('span', { class: 'hint', text: draft.date.label })));
          read = () => ({ local: field.value });
          break;
        }
        field = el('input', { type: 'text', class: 'editor-field', 'aria-label': 'Value', 'aria-describedby': described, spellcheck: 'false' });
        field.value = draft.text;
        read = () => ({ text: field.value });
        break;
      default:
        field = el('textarea', {
          class: `editor-field${draft.editor === 'json' ? ' code' : ''}`, 'aria-label': 'Value', 'aria-describedby': described,
          rows: draft.editor === 'json' ? 14 : 4, spellcheck: 'false',
        });
        field.value = draft.text;
        read = () => ({ text: field.value });
    }
    this.readField = read;
    const check = () => {
      clearTimeout(this.checkTimer);
      this.checkTimer = setTimeout(() => this.app.send('check', read(), { quiet: true }), 150);
    };
    field.addEventListener('input', check);
    field.addEventListener('change', check);
    field.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) { event.preventDefault(); submit(); }
    });
    const problemBox = el('div', { class: 'draft-error', id: errorID, role: 'alert' });
    // The model's reason beside the field; for JSON, the line it points at with a caret under
    // the column, so the person sees the spot.
    this.showProblem = (found) => {
      clear(problemBox);
      field.setAttribute('aria-invalid', found ? 'true' : 'false');
      if (!found) return;
      const place = found.line ? `Line ${found.line}, column ${found.column}: ` : '';
      problemBox.append(el('p', { class: 'problem-text', text: place + found.message }));
      if (found.line && field instanceof HTMLTextAreaElement) {
        const line = field.value.split('\n')[found.line - 1] ?? '';
        problemBox.append(el('pre', { class: 'problem-spot', 'aria-label': `Line ${found.line}`, text: `${line}\n${' '.repeat(Math.max(0, found.column - 1))}^` }));
      }
    };
    this.showProblem(draft.problem);
    if (draft.problem?.line && field instanceof HTMLTextAreaElement) {
      // A refused save puts the text cursor at the spot.
      const lines = field.value.split('\n');
      const offset = lines.slice(0, draft.problem.line - 1).reduce((sum, text) => sum + text.length + 1, 0) + draft.problem.column - 1;
      setTimeout(() => field.setSelectionRange(offset, offset), 0);
    }
    form.append(el('label', { class: 'hint', id: hintID, text: draft.hint }), field, ...extra, problemBox);
    form.append(el('div', { class: 'actions' },
      el('button', { type: 'submit', text: draft.replacesSecret ? 'Replace secret' : 'Save' }),
      button('Cancel', () => this.app.send('cancel'))));
    setTimeout(() => field.focus(), 0);
    return form;
  }

  // Every word of the box comes from the model (InspectorConflict), as in every face.
  conflict(conflict) {
    const labels = conflict.labels;
    const box = el('section', { class: 'conflict', role: 'alert', 'aria-label': 'Conflict' },
      el('h2', { text: conflict.heading }),
      el('h3', { text: labels.base }), el('pre', { text: conflict.base }),
      el('h3', { text: labels.theirs }), el('pre', { text: conflict.theirs }),
      el('h3', { text: labels.yours }), el('pre', { text: conflict.yours }),
      el('div', { class: 'actions' },
        button(labels.keepTheirs, () => this.app.send('keepTheirs')),
        button(labels.writeMine, () => this.app.send('writeMine'))));
    return box;
  }
}
