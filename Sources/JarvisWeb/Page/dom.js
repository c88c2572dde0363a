// Small helpers for building the page. Every text goes in through textContent: a value or a
// key is never parsed as markup.

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'text') node.textContent = String(value);
    else if (name === 'class') node.className = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else if (name === 'dataset') Object.assign(node.dataset, value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function button(label, onclick, attributes = {}) {
  return el('button', { type: 'button', text: label, onclick, ...attributes });
}

export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
}

export function $(id) {
  return document.getElementById(id);
}
