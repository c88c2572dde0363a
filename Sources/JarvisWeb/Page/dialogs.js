// Questions asked before something is done: delete, reveal, delete what the filter shows,
// add a key. The model decided what may be offered; these only ask the person.

import { el, button, clear, $ } from './dom.js';

export function showDialog(title, body, actions) {
  return show(title, body, actions);
}

function show(title, body, actions) {
  const dialog = $('dialog');
  clear(dialog);
  dialog.setAttribute('aria-label', title);
  dialog.append(el('h2', { text: title }), ...body, el('div', { class: 'actions' }, ...actions));
  if (!dialog.open) dialog.showModal();
  return dialog;
}

export function closeDialog() {
  const dialog = $('dialog');
  if (dialog.open) dialog.close();
}

export function confirmReveal(app, detail) {
  show(`Reveal ${detail.title}?`, [
    el('p', { text: 'The secret is sent to this page and shown. The agent records every reveal in its audit trail.' }),
  ], [
    button('Reveal', () => { closeDialog(); app.send('reveal', { target: detail.row.target }); }),
    button('Cancel', closeDialog),
  ]);
}

// The model asks before a draft is sent (replacing a secret): its question, word for word.
export function confirmSave(app, question, read) {
  show('Replace secret?', [el('p', { text: question })], [
    button('Replace secret', () => { closeDialog(); app.send('save', { ...read(), confirmed: true }); }, { class: 'danger' }),
    button('Cancel', () => { closeDialog(); app.send('unask'); }),
  ]);
}

export function bulkPreview(app, bulk) {
  const list = el('ul', { class: 'bulk-list', 'aria-label': 'Keys to delete' });
  for (const key of bulk.keys) list.append(el('li', { text: key }));
  show(`Delete ${bulk.count} key${bulk.count === 1 ? '' : 's'}?`, [
    el('p', { text: bulk.question }), list,
  ], [
    button(`Delete ${bulk.count} key${bulk.count === 1 ? '' : 's'}`, () => { closeDialog(); app.send('deleteFiltered'); }, { class: 'danger' }),
    button('Cancel', () => { closeDialog(); app.send('bulkCancel'); }),
  ]);
}

export function addKey(app, add) {
  const containerField = el('select', { 'aria-label': 'Container' });
  add.containers.forEach((entry, index) => containerField.append(el('option', { value: String(index), text: entry.title })));
  const key = el('input', { type: 'text', 'aria-label': 'Key name', spellcheck: 'false', autocomplete: 'off' });
  const type = el('select', { 'aria-label': 'Type' });
  // The types the chosen container takes, as the model listed them.
  const types = () => {
    clear(type);
    for (const name of add.containers[Number(containerField.value)]?.types || []) type.append(el('option', { value: name, text: name }));
  };
  containerField.addEventListener('change', types);
  types();
  const create = (entry, name, typeName) => {
    closeDialog();
    app.send('addCreate', { scanner: entry.scanner, container: entry.container, key: name, type: typeName });
  };
  const suggestions = el('ul', { class: 'suggestions', 'aria-label': 'Declared keys with nothing stored' });
  for (const suggestion of add.suggestions) {
    suggestions.append(el('li', {}, button(`${suggestion.key} (${suggestion.type}, ${suggestion.container})${suggestion.about ? ' — ' + suggestion.about : ''}`,
      () => create(suggestion, suggestion.key, suggestion.type))));
  }
  const body = [];
  if (add.suggestions.length) body.push(el('h3', { text: 'Declared by the key catalog, not stored yet' }), suggestions);
  body.push(el('div', { class: 'form-grid' },
    el('label', { text: 'Container' }), containerField,
    el('label', { text: 'Key name' }), key,
    el('label', { text: 'Type' }), type));
  show('Add key', body, [
    button('Create', () => {
      const entry = add.containers[Number(containerField.value)];
      if (entry) create(entry, key.value, type.value);
    }),
    button('Cancel', () => { closeDialog(); app.send('addCancel'); }),
  ]);
  setTimeout(() => key.focus(), 0);
}

// Every key the page answers to, as `?` shows it.
export const SHORTCUTS = [
  ['?', 'Show or hide these keyboard shortcuts'],
  ['/', 'Filter keys and values'],
  ['↑ ↓  Page Up  Page Down  Home  End', 'Move in the table'],
  ['Enter', 'Open the key or member'],
  ['Esc', 'Up one level: from a member to its parent, from a key back to the table; cancels an edit'],
  ['e', 'Edit the value'],
  ['Space', 'Quick edit: toggle a boolean, next choice'],
  ['a', 'Add an element to an array'],
  ['⌘ Enter  Ctrl Enter', 'Save the edit'],
  ['Double-click', 'Edit a row'],
];

export function help() {
  const dialog = $('dialog');
  if (dialog.open && dialog.dataset.kind === 'help') { closeDialog(); return; }
  const list = el('dl', { class: 'shortcuts', 'aria-label': 'Keyboard shortcuts' });
  for (const [keys, what] of SHORTCUTS) list.append(el('dt', {}, el('kbd', { text: keys })), el('dd', { text: what }));
  show('Keyboard shortcuts', [list], [button('Close', closeDialog)]);
  // `?` closes it again (the page's key handler asks `isHelpOpen`); Esc closes every dialog.
  dialog.dataset.kind = 'help';
  dialog.addEventListener('close', () => { delete dialog.dataset.kind; }, { once: true });
}

export function isHelpOpen() {
  const dialog = $('dialog');
  return dialog.open && dialog.dataset.kind === 'help';
}
