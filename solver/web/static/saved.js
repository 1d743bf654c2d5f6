// Saved games (issue 47): a game named and kept in this browser (localStorage; the server
// keeps nothing), listed to open, rename, export or delete, and imported from a file.  A
// game is kept as the rules' JSON (what Rules.to_json writes, a .json game file holds and
// `cbj --game FILE` reads); /api/saved turns the page's fields into it and back, through
// the readers every other surface uses, and refuses a bad file in one line.  Every page with
// a game gets the panel, built here with DOM calls (a name is only ever text); the Compare
// page also gets a picker in each column.  Loaded by workbench.js.
"use strict";
(() => {
  const KEY = "cbj-saved-games";
  const MOST = 80;  // the longest name kept
  const FILE_BYTES = 64 * 1024;  // the largest game file read (as --game reads)
  const GAME = (document.body.dataset.game || "").split(" ").filter((n) => n && n !== "exact");
  const main = document.querySelector("main");
  if (!main || !GAME.length) return;
  const page = document.body.dataset.page;

  // An element with its properties (text through textContent only) and its children.
  const make = (tag, props = {}, ...children) => {
    const node = Object.assign(document.createElement(tag), props);
    node.append(...children);
    return node;
  };
  const button = (text, label, act, kind = "") => {
    const node = make("button", { type: "button", className: ("secondary " + kind).trim(), textContent: text });
    if (label) node.setAttribute("aria-label", label);
    node.addEventListener("click", act);
    return node;
  };

  const load = () => {
    let found;
    try {
      found = JSON.parse(localStorage.getItem(KEY) || "[]");
    } catch (error) {
      return [];
    }
    if (!Array.isArray(found)) return [];
    return found.filter((g) => g && typeof g.name === "string" && g.rules && typeof g.rules === "object");
  };
  const keep = (games) => {
    localStorage.setItem(KEY, JSON.stringify(games));
    render();
  };

  // The server's reading of a game: {rules, fields, summary} or {error}.
  const ask = async (fields) => {
    try {
      const response = await fetch("/api/saved", {
        method: "POST",
        body: new URLSearchParams(fields),
        headers: { accept: "application/json" },
      });
      const answer = await response.json().catch(() => ({}));
      return response.ok || answer.error ? answer
        : { error: "the server answered " + response.status };
    } catch (error) {
      return { error: "the server did not answer" };
    }
  };
  const read = (game) => ask({ game: JSON.stringify(game.rules), name: game.name + ".json" });

  // The page's own game: its rules form (column A's on Compare), else its address.
  const gameForm = () => {
    for (const select of document.querySelectorAll("select[data-presets]")) {
      const prefix = select.name.slice(0, select.name.length - "preset".length);
      if (prefix === "" || prefix === "a.") return { form: select.form, prefix };
    }
    return null;
  };
  const currentFields = () => {
    const found = gameForm();
    const given = found ? null : new URLSearchParams(location.search);
    const fields = {};
    for (const name of GAME) {
      const control = found && found.form.elements.namedItem(found.prefix + name);
      const text = found ? (control ? String(control.value).trim() : "") : given.get(name) || "";
      if (text) fields[name] = text;
    }
    return fields;
  };
  // A form's game fields set to a game's, then changed as if typed (the page answers).
  const fill = (form, prefix, fields) => {
    for (const name of GAME) {
      const control = form.elements.namedItem(prefix + name);
      if (control) control.value = fields[name] || "";
    }
    const preset = form.elements.namedItem(prefix + "preset") || form;
    preset.dispatchEvent(new Event("change", { bubbles: true }));
  };

  // The panel.
  const said = make("p", { className: "said", id: "saved-said" });
  said.setAttribute("role", "status");
  const say = (text) => { said.textContent = text; };
  const nameField = make("input", { type: "text", id: "saved-name", maxLength: MOST, autocomplete: "off" });
  const saveForm = make("form", { className: "saved-save" },
    make("label", { htmlFor: "saved-name", textContent: page === "/compare" ? "Save column A as" : "Save this game as" }),
    make("div", { className: "saved-line" }, nameField, make("button", { type: "submit", textContent: "Save" })));
  const list = make("ul", { className: "saved-list", id: "saved-list" });
  const none = make("p", { className: "saved-none", textContent: "No game saved in this browser yet." });
  const importer = make("input", { type: "file", id: "saved-import", accept: ".json,.toml,application/json" });
  const importSaid = make("p", { className: "error", id: "saved-import-said" });
  importSaid.setAttribute("role", "status");
  const count = make("summary", { textContent: "Saved games" });
  const panel = make("details", { className: "saved-games", id: "saved-games" }, count,
    make("div", { className: "saved-body" }, saveForm, said, list, none,
      make("div", { className: "saved-import" },
        make("label", { htmlFor: "saved-import", textContent: "Import a game file (JSON or TOML)" }),
        importer, importSaid)));
  const summary = document.getElementById("summary");
  (summary && summary.parentElement === main ? summary : main.querySelector("h1")).after(panel);

  saveForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = nameField.value.trim();
    if (!name) {
      say("Give the game a name to save it under.");
      nameField.focus();
      return;
    }
    const answer = await ask(currentFields());
    if (answer.error) {
      say("Not saved: " + answer.error);
      return;
    }
    const games = load();
    const at = games.findIndex((g) => g.name === name);
    const game = { name, rules: answer.rules, summary: answer.summary, saved: new Date().toISOString() };
    if (at >= 0) games[at] = game;
    else games.push(game);
    try {
      keep(games);
    } catch (error) {
      say("Not saved: this browser keeps nothing for this page (" + error.name + ").");
      return;
    }
    nameField.value = "";
    say(at >= 0 ? `Saved “${name}” over the game of that name.` : `Saved “${name}”.`);
  });

  const open = async (game) => {
    const answer = await read(game);
    if (answer.error) {
      say(`“${game.name}” cannot be opened: ${answer.error}`);
      return;
    }
    const found = gameForm();
    if (found && (page === "/" || page === "/compare")) {
      fill(found.form, found.prefix, answer.fields);
      say(`Opened “${game.name}”` + (page === "/compare" ? " in column A." : "."));
      return;
    }
    const query = new URLSearchParams(location.search);
    for (const name of GAME) query.delete(name);
    for (const [name, text] of Object.entries(answer.fields)) query.set(name, text);
    const text = query.toString();
    location.assign(location.pathname + (text ? "?" + text : ""));
  };

  // A file name made of the game's name (letters, digits and dashes).
  const fileName = (name) => {
    const slug = name.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "").slice(0, 60);
    return "cbj-game" + (slug ? "-" + slug : "") + ".json";
  };
  const exportGame = (game) => {
    const text = JSON.stringify(game.rules, null, 2) + "\n";
    const link = make("a", { download: fileName(game.name), hidden: true,
      href: URL.createObjectURL(new Blob([text], { type: "application/json" })) });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  };

  const remove = (game) => {
    keep(load().filter((g) => g.name !== game.name));
    say(`Deleted “${game.name}”.`);
  };

  // Rename in place: the name becomes a field (Enter keeps it, Escape leaves it as it was).
  const rename = (game, item) => {
    const id = "saved-rename-" + Array.prototype.indexOf.call(list.children, item);
    const field = make("input", { type: "text", id, value: game.name, maxLength: MOST, autocomplete: "off" });
    const done = () => {
      render();
      const back = list.querySelector(`[data-name="${CSS.escape(game.name)}"] .rename`);
      if (back) back.focus();
    };
    const form = make("form", { className: "saved-rename" },
      make("label", { htmlFor: id, className: "visually-hidden", textContent: `New name for “${game.name}”` }),
      field, make("button", { type: "submit", textContent: "Rename" }),
      button("Cancel", "", done));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const name = field.value.trim();
      if (name && name !== game.name && load().some((g) => g.name === name)) {
        say(`A game is saved as “${name}” already: choose another name.`);
        return;
      }
      if (name && name !== game.name) {
        keep(load().map((g) => (g.name === game.name ? { ...g, name } : g)));
        say(`Renamed “${game.name}” to “${name}”.`);
        game = { ...game, name };
      }
      done();
    });
    field.addEventListener("keydown", (event) => { if (event.key === "Escape") done(); });
    item.replaceChildren(form);
    field.focus();
    field.select();
  };

  const row = (game) => {
    const item = make("li", {},
      make("span", { className: "saved-title", textContent: game.name }),
      make("span", { className: "saved-rules", textContent: String(game.summary || "") }));
    item.dataset.name = game.name;
    const actions = make("span", { className: "saved-actions" },
      button("Open", `Open “${game.name}”`, () => open(game)),
      button("Rename", `Rename “${game.name}”`, () => rename(game, item), "rename"),
      button("Export", `Export “${game.name}” as a file`, () => exportGame(game)),
      button("Delete", `Delete “${game.name}”`, () => remove(game)));
    item.append(actions);
    return item;
  };

  // Compare: each column picks a saved game into its fields.
  const pickers = [];
  for (const column of document.querySelectorAll("#compare-form fieldset")) {
    const preset = column.querySelector("select[data-presets]");
    if (!preset) continue;
    const prefix = preset.name.slice(0, preset.name.length - "preset".length);
    const select = make("select", { id: prefix + "saved-pick" });
    const note = make("p", { className: "error", id: prefix + "saved-pick-said" });
    note.setAttribute("role", "status");
    const legend = column.querySelector("legend");
    const box = make("div", { className: "field saved-pick" },
      make("label", { htmlFor: select.id, textContent: "Saved game" }), select, note);
    if (legend) legend.after(box);
    else column.prepend(box);
    select.addEventListener("change", async (event) => {
      event.stopPropagation();  // not a field of the comparison
      note.textContent = "";
      const game = load().find((g) => g.name === select.value);
      if (!game) return;
      const answer = await read(game);
      if (answer.error) note.textContent = `“${game.name}” cannot be opened: ${answer.error}`;
      else fill(preset.form, prefix, answer.fields);
    });
    pickers.push(select);
  }

  function render() {
    const games = load();
    count.textContent = games.length ? `Saved games (${games.length})` : "Saved games";
    list.replaceChildren(...games.map(row));
    list.hidden = !games.length;
    none.hidden = games.length > 0;
    for (const select of pickers) {
      const chosen = select.value;
      select.replaceChildren(new Option(games.length ? "choose one…" : "none saved yet", ""),
        ...games.map((g) => new Option(g.name, g.name)));
      select.value = games.some((g) => g.name === chosen) ? chosen : "";
      select.disabled = !games.length;
    }
  }

  importer.addEventListener("change", async () => {
    const chosen = importer.files[0];
    importSaid.textContent = "";
    if (!chosen) return;
    importer.value = "";
    const refuse = (why) => { importSaid.textContent = `${chosen.name} was not imported: ${why}`; };
    if (chosen.size > FILE_BYTES) {
      refuse("it is over 64 KiB, and a game file is a few hundred bytes.");
      return;
    }
    const answer = await ask({ game: await chosen.text(), name: chosen.name });
    if (answer.error) {
      refuse(answer.error);
      return;
    }
    const games = load();
    const stem = chosen.name.replace(/\.(json|toml)$/i, "").replace(/^cbj-game-/, "").slice(0, MOST) || "imported game";
    let name = stem;
    for (let n = 2; games.some((g) => g.name === name); n += 1) name = `${stem} (${n})`;
    games.push({ name, rules: answer.rules, summary: answer.summary, saved: new Date().toISOString() });
    keep(games);
    say(`Imported ${chosen.name} as “${name}”.`);
  });

  window.addEventListener("storage", (event) => { if (event.key === KEY || event.key === null) render(); });
  render();
})();
