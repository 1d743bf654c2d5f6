// The workbench's one script: the Game page answers as the designer types.
// Without it every form still works (each page is rendered by the server, and its form
// posts); with it the Game page posts to /api/game after each change (only a POST starts
// work), keeps the inputs in the address bar (so a link or a reload shows the same page),
// shows a solve's progress, and forgets an answer that a newer input has overtaken.
// A page whose work is not started yet and that may start it (marked data-start) starts it
// once by posting its own address; pages still computing reload themselves once a second.
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

  const showErrors = (form, errors) => {
    for (const box of form.querySelectorAll("p.error")) {
      const name = box.id.replace(/^(form-)?error-/, "");
      const text = errors[name] || "";
      box.textContent = text;
      const field = box.closest(".field");
      if (field) field.classList.toggle("invalid", text !== "");
      const control = document.getElementById("f-" + name);
      if (control) {
        if (text) control.setAttribute("aria-invalid", "true");
        else control.removeAttribute("aria-invalid");
      }
    }
  };

  const live = (form) => {
    const figures = document.getElementById("figures");
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
        figures.classList.remove("stale");
      } else {
        figures.classList.add("stale");
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

  const form = document.getElementById("rules");
  const idle = document.querySelector("#idle[data-start]");
  if (document.body.dataset.page === "/" && form) {
    live(form);
  } else if (idle) {
    start(idle);
  } else if (document.querySelector('[aria-busy="true"], #progress[role="status"]')) {
    setTimeout(() => location.reload(), 1000);
  }
})();
