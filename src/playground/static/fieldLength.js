// A text field over its max_length, said at the field as the person types (blocks.js's inputs).

/** Says at the field, as the person types or pastes, that the text is over the field's limit. */
export function watchLength(widget, max, error, node) {
  let said = "";
  widget.addEventListener("input", () => {
    const length = widget.value.length;
    if (length > max) {
      said = `${length} characters: at most ${max}. Shorten it; nothing is cut for you.`;
      error.textContent = said;
      node.classList.add("has-error");
    } else if (said && error.textContent === said) {
      said = "";
      error.textContent = "";
      node.classList.remove("has-error");
    }
  });
}
