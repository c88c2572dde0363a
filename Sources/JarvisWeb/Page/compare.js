// Comparing across agents: the key in view on every agent (one line each, differences
// marked, "Set on all" and "Copy to…"), and the container in view against another agent or a
// snapshot file (each difference applied on its own). The server reads, decides and writes;
// this only draws what it sent and sends intents back. Every value goes in as text.

import { el, button, clear, $ } from './dom.js';
import { closeDialog, showDialog } from './dialogs.js';

// The key on every agent, under the detail. `checked`: the ids ticked for "Copy to…", kept
// across redraws.
export function fleetSection(app, fleet, checked) {
  const box = el('section', { class: 'fleet', 'aria-label': 'On every agent' },
    el('h3', { text: fleet.title }));
  const list = el('ul', { class: 'fleet-lines', 'aria-label': 'Value per agent' });
  for (const fleetLine of fleet.lines) {
    const shown = fleetLine.status === 'ok' ? fleetLine.value : `${fleetLine.status}${fleetLine.reason ? ` — ${fleetLine.reason}` : ''}`;
    const item = el('li', {
      class: `fleet-line${fleetLine.differs ? ' differs' : ''}${fleetLine.status === 'ok' ? '' : ' not-ok'}`,
      'aria-label': fleetLine.agent, dataset: { status: fleetLine.status },
    });
    if (fleetLine.own) {
      item.append(el('span', { class: 'fleet-pick' }));
    } else {
      const box = el('input', { type: 'checkbox', class: 'fleet-pick', 'aria-label': `Copy to ${fleetLine.agent}` });
      box.checked = checked.has(fleetLine.id);
      box.addEventListener('change', () => { if (box.checked) checked.add(fleetLine.id); else checked.delete(fleetLine.id); });
      item.append(box);
    }
    item.append(
      el('span', { class: 'fleet-agent', text: fleetLine.own ? `${fleetLine.agent} (this agent)` : fleetLine.agent }),
      el('span', { class: 'fleet-mark', text: fleetLine.differs ? '≠ differs' : '' }),
      el('span', { class: 'fleet-value', text: shown ?? '' }));
    list.append(item);
  }
  box.append(list);
  const buttons = el('div', { class: 'actions' });
  if (fleet.canCopy) {
    buttons.append(
      button('Set on all', () => askCreate(fleet.lines.filter((line) => !line.own),
        (create) => app.send('fleetSetAll', { create }))),
      button('Copy to selected', () => askCreate(fleet.lines.filter((line) => checked.has(line.id)),
        (create) => app.send('fleetCopy', { agents: [...checked], create }))));
  }
  buttons.append(button('Close comparison', () => app.send('fleetClose')));
  box.append(buttons);
  if (fleet.results) {
    const results = el('ul', { class: 'fleet-results', 'aria-label': 'Result per agent' });
    for (const fleetLine of fleet.results) {
      results.append(el('li', { class: 'fleet-line', 'aria-label': fleetLine.agent, dataset: { status: fleetLine.status } },
        el('span', { class: 'fleet-agent', text: fleetLine.agent }),
        el('span', { class: 'fleet-status', text: fleetLine.status }),
        el('span', { class: 'fleet-value', text: fleetLine.reason ?? fleetLine.value ?? '' })));
    }
    box.append(el('h4', { text: 'Result per agent' }), results);
    if (fleet.summary) box.append(el('p', { class: 'hint', text: fleet.summary }));
  }
  return box;
}

// A fan-out writes only what a single write would: where the key is absent, it is created
// only when the person says so. `write(create)` sends the intent.
function askCreate(targets, write) {
  const absent = targets.filter((line) => line.status === 'not found');
  if (absent.length === 0) { write(false); return; }
  const names = absent.map((line) => line.agent).join(', ');
  const written = targets.length - absent.length;
  showDialog('Create the key where it is absent?', [
    el('p', { text: `Absent on ${absent.length} of ${targets.length} agent${targets.length === 1 ? '' : 's'}: ${names}.` }),
    el('p', { class: 'hint', text: 'Create it there, or write only where it exists (the absent ones are left as they are).' }),
  ], [
    button(`Create on ${absent.length}`, () => { closeDialog(); write(true); }),
    ...(written > 0 ? [button(`Only where it exists (${written})`, () => { closeDialog(); write(false); })] : []),
    button('Cancel', closeDialog),
  ]);
}

const KINDS = { added: 'only there', removed: 'only here', changed: 'differs' };

// The container compared: one row per difference, each with its own button.
export function drawComparison(app, view) {
  const section = $('comparison');
  const comparison = view.comparison;
  section.hidden = !comparison;
  const signature = JSON.stringify(comparison);
  if (section.dataset.signature === signature) return;
  section.dataset.signature = signature;
  clear(section);
  if (!comparison) return;
  section.append(el('h2', { text: comparison.title }));
  const count = comparison.differences.length;
  section.append(el('p', { class: 'hint', text: `${count} difference${count === 1 ? '' : 's'} with ${comparison.there}, ${comparison.unchanged} unchanged`
    + (comparison.notCompared ? `, ${comparison.notCompared} masked secret${comparison.notCompared === 1 ? '' : 's'} not compared` : '') }));
  if (comparison.applied) section.append(el('p', { class: 'compare-applied', role: 'status', dataset: { kind: comparison.applied.kind }, text: comparison.applied.text }));
  const list = el('ul', { class: 'differences', 'aria-label': 'Differences' });
  for (const difference of comparison.differences) {
    const item = el('li', { class: `difference ${difference.kind}`, 'aria-label': difference.title },
      el('span', { class: 'difference-kind', text: KINDS[difference.kind] ?? difference.kind }),
      el('span', { class: 'difference-key', text: difference.title }),
      el('span', { class: 'difference-values', text: `${difference.here ?? '(absent)'} → ${difference.there ?? '(absent)'}` }));
    if (difference.apply) {
      item.append(button(difference.apply, () => app.send('compareApply', { key: difference.key }),
        { 'aria-label': `${difference.apply}: ${difference.title}` }));
    } else if (difference.blocked) {
      item.append(el('span', { class: 'hint', text: difference.blocked }));
    }
    list.append(item);
  }
  section.append(list, el('div', { class: 'actions' }, button('Close comparison', () => app.send('compareClose'))));
}

// "Compare…": another running agent, or a snapshot file read here and sent whole (up to the
// server's limit; a larger file is refused before it is read).
export function chooseComparison(app, view) {
  const compareOffer = view.compareOffer;
  const others = view.agents.filter((agent) => !agent.current && /^\d+$/.test(agent.id));
  const agentField = el('select', { 'aria-label': 'Agent to compare with' });
  for (const agent of others) agentField.append(el('option', { value: agent.id, text: `${agent.title} (${agent.subtitle})` }));
  const file = el('input', { type: 'file', 'aria-label': 'Snapshot file', accept: '.json,application/json' });
  const problem = el('p', { class: 'draft-error', role: 'alert' });
  const body = [
    el('p', { text: `Compare ${compareOffer.container} here with the same container elsewhere. Each difference is applied to this agent only, on its own.` }),
    el('div', { class: 'form-grid' },
      el('label', { text: 'Agent' }), agentField,
      el('label', { text: 'Snapshot file' }), file),
    problem,
  ];
  showDialog('Compare container', body, [
    button('Compare with agent', () => {
      if (!agentField.value) { problem.textContent = 'no other agent is running'; return; }
      closeDialog();
      app.send('compareAgent', { id: agentField.value });
    }),
    button('Compare with file', async () => {
      const chosen = file.files[0];
      if (!chosen) { problem.textContent = 'choose a snapshot file (from jarvis export)'; return; }
      if (chosen.size > compareOffer.snapshotLimit) { problem.textContent = compareOffer.tooLarge; return; }
      const text = await chosen.text();
      closeDialog();
      app.send('compareFile', { name: chosen.name, text });
    }),
    button('Cancel', closeDialog),
  ]);
}
