// The workbench's script: the Game and Compare pages answer as the designer types.
// Without it every form still works (each page is rendered by the server, and its form
// posts); with it the Game page posts to /api/game after each change (only a POST starts
// work), keeps the inputs in the address bar (so a link or a reload shows the same page),
// shows a solve's progress and its headline figures in a summary that stays in view, and
// forgets an answer that a newer input has overtaken; the Compare page does the same with
// /api/compare, a bad field marking only itself.  A table wider than its box shows a cue
// that it scrolls sideways.  A page whose work is not started yet and that may start it
// (marked data-start) starts it once by posting its own address; pages still computing
// reload themselves once a second.  On every page the game (the rules' fields) travels in
// each link of the navigation and in the address as the designer types, and every blank
// field says what the preset chosen sets.  It loads saved.js, the saved games' panel.
"use strict";
(() => {
  const queryOf = (form) => {
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(form)) {
      const text = String(value).trim();
      if (text !== "") params.append(name, text);
    }
    return params.toString();
  };

  // Each error box is "error-NAME" (or "PREFIX.error-NAME" in a Compare column): its text
  // is errors["PREFIX.NAME"], its field "PREFIX.f-NAME".
  const showErrors = (form, errors) => {
    for (const box of form.querySelectorAll("p.error")) {
      const found = /^(.*?)(?:form-)?error-(.*)$/.exec(box.id);
      if (!found) continue;
      const [, prefix, name] = found;
      const text = errors[prefix + name] || "";
      box.textContent = text;
      const field = box.closest(".field");
      if (field) field.classList.toggle("invalid", text !== "");
      const control = document.getElementById(prefix + "f-" + name);
      if (control) {
        if (text) control.setAttribute("aria-invalid", "true");
        else control.removeAttribute("aria-invalid");
      }
    }
  };

  // The game's fields (the preset, each rule, exact fractions), named in the page's body.
  const GAME = (document.body.dataset.game || "").split(" ").filter((name) => name);

  // The game as a query, from the fields of a form (those named PREFIX + a game field).
  const gameQuery = (form, prefix) => {
    const params = new URLSearchParams();
    for (const name of GAME) {
      const control = form.elements.namedItem(prefix + name);
      if (!control || !control.name) continue;
      const value = control.type === "checkbox"
        ? (control.checked ? control.value : "") : String(control.value).trim();
      if (value !== "") params.append(name, value);
    }
    return params.toString();
  };

  // Each link of the navigation carries the game as it stands in the form, and the address
  // (when the form is the page's own) its visible fields, so a link or a reload shows it.
  const carry = (form, prefix, keepAddress) => {
    const update = () => {
      const game = gameQuery(form, prefix);
      for (const link of document.querySelectorAll("header.site nav a")) {
        link.href = link.pathname + (game ? "?" + game : "");
      }
      if (!keepAddress) return;
      const params = new URLSearchParams();
      for (const control of form.elements) {
        if (!control.name || control.type === "hidden" || control.type === "file") continue;
        if (control.type === "checkbox" && !control.checked) continue;
        const value = String(control.value).trim();
        if (value !== "") params.append(control.name, value);
      }
      const query = params.toString();
      const url = location.pathname + (query ? "?" + query : "");
      if (url !== location.pathname + location.search) history.replaceState(null, "", url);
    };
    form.addEventListener("input", update);
    form.addEventListener("change", update);
  };

  // Every blank field says what the preset chosen sets: a text field as its placeholder, a
  // drop-down as its first choice (the words of each preset come with the page).
  const presetWords = (form) => {
    for (const select of form.querySelectorAll("select[data-presets]")) {
      const prefix = select.name.slice(0, select.name.length - "preset".length);
      const table = JSON.parse(select.dataset.presets);
      select.addEventListener("change", () => {
        const words = table[select.value || "casino-edition"] || {};
        for (const [name, text] of Object.entries(words)) {
          const control = form.elements.namedItem(prefix + name);
          if (!control) continue;
          if (control.tagName === "SELECT") control.options[0].textContent = text;
          else control.placeholder = text;
        }
      });
    }
  };

  for (const form of document.querySelectorAll("form")) {
    if (!form.querySelector("select[data-presets]")) continue;
    presetWords(form);
    const compared = form.id === "compare-form";
    // the Game and Compare pages keep their address themselves; column A is the game
    carry(form, compared ? "a." : "", !compared && form.id !== "rules" && form.id !== "practice");
  }

  // A cue above each table that is wider than its box (which scrolls sideways).
  const cues = () => {
    for (const box of document.querySelectorAll(".table-box")) {
      const region = box.querySelector(".scroll");
      const cue = box.querySelector(".cue");
      if (!region || !cue) continue;
      const wide = region.scrollWidth > region.clientWidth + 1;
      cue.hidden = !wide;
      region.classList.toggle("overflows", wide);
    }
  };
  window.addEventListener("resize", cues);

  const live = (form) => {
    const figures = document.getElementById("figures");
    const summary = document.getElementById("summary");
    let serial = 0;
    let controller = null;
    let timer = null;

    const setProgress = (markup) => {
      const old = document.getElementById("progress");
      if (markup) {
        old.outerHTML = markup;
      } else {
        old.hidden = true;
      }
    };

    const ask = async (query, mine) => {
      if (controller) controller.abort();
      controller = new AbortController();
      let answer;
      try {
        const response = await fetch("/api/game?" + query, {
          method: "POST",
          signal: controller.signal,
          headers: { accept: "application/json" },
        });
        answer = await response.json();
      } catch (error) {
        if (error.name !== "AbortError" && mine === serial) setTimeout(() => ask(query, mine), 500);
        return;
      }
      if (mine !== serial || answer.status === "superseded") return;
      showErrors(form, answer.errors || {});
      if (answer.status === "working") {
        figures.setAttribute("aria-busy", "true");
        setProgress(answer.progress);
        setTimeout(() => { if (mine === serial) ask(query, mine); }, 150);
        return;
      }
      setProgress("");
      figures.removeAttribute("aria-busy");
      if (answer.status === "ready") {
        figures.innerHTML = answer.figures;
        if (summary && answer.summary) summary.innerHTML = answer.summary;
        figures.classList.remove("stale");
        if (summary) summary.classList.remove("stale");
        cues();
      } else {
        figures.classList.add("stale");
        if (summary) summary.classList.add("stale");
        if (answer.figures) figures.innerHTML = answer.figures;
      }
    };

    const update = (push) => {
      const query = queryOf(form);
      const url = query ? "/?" + query : "/";
      if (url !== location.pathname + location.search) {
        if (push) history.pushState(null, "", url);
        else history.replaceState(null, "", url);
      }
      serial += 1;
      ask(query, serial);
    };

    form.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(() => update(false), 120);
    });
    form.addEventListener("change", () => {
      clearTimeout(timer);
      update(true);
    });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      clearTimeout(timer);
      update(true);
    });
    window.addEventListener("popstate", () => location.reload());
    if (figures.getAttribute("aria-busy") === "true" || document.querySelector("#idle[data-start]")) {
      serial += 1;
      ask(queryOf(form), serial);
    }
  };

  // Start a page's work once: post its own address, then show it again (with the progress).
  const start = async (idle) => {
    let response;
    try {
      response = await fetch(location.href, { method: "POST", redirect: "manual" });
    } catch (error) {
      idle.textContent = "Not started: the server did not answer. Press the button to try again.";
      return;
    }
    if (response.ok || response.type === "opaqueredirect") {
      location.reload();
    } else {
      idle.textContent = "Not started (the server answered " + response.status + "): " +
        "press the button to try again.";
    }
  };

  // The Compare page: its table follows the columns' fields as they are typed.
  const compare = (form) => {
    const results = document.getElementById("results");
    let serial = 0;
    let timer = null;

    const ask = async (query, mine) => {
      let answer;
      try {
        const response = await fetch("/api/compare?" + query, {
          method: "POST",
          headers: { accept: "application/json" },
        });
        answer = await response.json();
      } catch (error) {
        if (mine === serial) setTimeout(() => ask(query, mine), 500);
        return;
      }
      if (mine !== serial) return;
      showErrors(form, answer.errors || {});
      results.innerHTML = answer.table;
      cues();
      if (answer.status === "working") {
        setTimeout(() => { if (mine === serial) ask(query, mine); }, 200);
      }
    };

    const update = () => {
      const query = queryOf(form);
      const url = query ? "/compare?" + query : "/compare";
      if (url !== location.pathname + location.search) history.replaceState(null, "", url);
      serial += 1;
      ask(query, serial);
    };

    form.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(update, 150);
    });
    form.addEventListener("change", () => {
      clearTimeout(timer);
      update();
    });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      clearTimeout(timer);
      update();
    });
  };

  // A chart file chosen in a form (the Report page's): its text goes in hidden fields
  // (data-text, data-name), read before the form is sent.
  for (const input of document.querySelectorAll("input[type=file][data-text]")) {
    let reading = Promise.resolve();
    const text = document.getElementById(input.dataset.text);
    const name = document.getElementById(input.dataset.name);
    input.addEventListener("change", () => {
      const chosen = input.files[0];
      text.value = "";
      name.value = "";
      if (chosen) {
        reading = chosen.text().then((read) => {
          text.value = read;
          name.value = chosen.name;
        });
      }
    });
    input.form.addEventListener("submit", (event) => {
      if (input.form.dataset.read === "yes") return;
      event.preventDefault();
      const submitter = event.submitter;
      reading.then(() => {
        input.form.dataset.read = "yes";
        // a task later: a form cannot be sent again while its submit event is being fired
        setTimeout(() => input.form.requestSubmit(submitter), 0);
      });
    });
  }

  // A file picker beside a text area (the Hold check's daily results): shown only with the
  // script, it puts the chosen file's text in the area, where it can be read and edited.
  for (const input of document.querySelectorAll("input[type=file][data-fills]")) {
    const area = document.getElementById(input.dataset.fills);
    input.hidden = false;
    input.addEventListener("change", () => {
      const chosen = input.files[0];
      if (chosen) chosen.text().then((read) => { area.value = read; });
    });
  }

  // The saved games' panel (saved.js) on every page that carries a game.
  if (document.body.dataset.game) {
    document.head.append(Object.assign(document.createElement("script"), { src: "/static/saved.js" }));
  }

  cues();
  const form = document.getElementById("rules");
  const compared = document.getElementById("compare-form");
  const idle = document.querySelector("#idle[data-start]");
  if (document.body.dataset.page === "/" && form) {
    live(form);
  } else if (compared) {
    compare(compared);
    if (idle || document.querySelector('[aria-busy="true"]')) {
      if (idle) idle.remove();
      compared.dispatchEvent(new Event("change"));  // asks for the table (and starts its solves)
    }
  } else if (idle) {
    start(idle);
  } else if (document.querySelector('[aria-busy="true"], #progress[role="status"]')) {
    setTimeout(() => location.reload(), 1000);
  }
})();
