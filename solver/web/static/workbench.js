// The workbench's one script: the Game page answers as the designer types.
// Without it every form still works (each page is rendered by the server); with it the
// Game page asks /api/game for its figures after each change, keeps the inputs in the
// address bar (so a link or a reload shows the same page), shows a solve's progress, and
// forgets an answer that a newer input has overtaken. Other pages that are still
// computing reload themselves once a second.
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
    if (figures.getAttribute("aria-busy") === "true") {
      serial += 1;
      ask(queryOf(form), serial);
    }
  };

  const form = document.getElementById("rules");
  if (document.body.dataset.page === "/" && form) {
    live(form);
  } else if (document.querySelector('[aria-busy="true"], #progress[role="status"]')) {
    setTimeout(() => location.reload(), 1000);
  }
})();
