// The Practice page's script: each play posted to /api/practice, its parts put in place.
// The session lives in this page: the state the server sent with the last turn is sent back
// with the next play, and kept in the browser's local storage (with the parts on show) so a
// reload carries on; the server keeps nothing.  So with the player's history across
// sessions: kept here under its own key, sent with each play, kept again as the server
// gives it back with the turn in it; exported to a file and imported from one (checked by
// /api/practice/history before it is kept).  "Drill my mistakes" starts a session of the
// mistakes drill, which deals the history's review schedule.  Keys: H hits, S stands, N
// deals the next round.  A chart file of the player's own is read here and its text sent
// when a session starts.  Without this script the form posts to /practice and the page
// comes back whole.
"use strict";
(() => {
  const form = document.getElementById("practice");
  if (!form) return;
  const KEY = "cbj-practice";
  const HISTORY_KEY = "cbj-practice-history";
  const stateField = document.getElementById("practice-state");
  const historyField = document.getElementById("practice-history");
  const historySaid = document.getElementById("history-said");
  const errorBox = document.getElementById("practice-error");
  const file = document.getElementById("f-chart");
  const chartText = document.getElementById("f-chart_text");
  const chartName = document.getElementById("f-chart_name");
  let busy = false;
  let reading = Promise.resolve();
  let shown = {};

  const put = (parts) => {
    for (const [id, markup] of Object.entries(parts)) {
      const element = document.getElementById(id);
      if (element) element.innerHTML = markup;
    }
  };

  const save = () => {
    try {
      localStorage.setItem(KEY, JSON.stringify({ state: stateField.value, parts: shown }));
      if (historyField.value) localStorage.setItem(HISTORY_KEY, historyField.value);
    } catch (error) {
      // private browsing or a full store: the session still runs in this page
    }
  };

  // The history as the server read it: kept, and shown.
  const keepHistory = (answer) => {
    if (!answer.history) return;
    historyField.value = JSON.stringify(answer.history);
    put({ history: answer.parts.history || "" });
    delete shown.history;  // shown from the history's own key on the next visit
    save();
  };

  // A form posted to one of the page's endpoints: its JSON answer (a refusal in plain text,
  // such as a form over the limit, as the answer's error); throws when the server is gone.
  const send = async (url, params) => {
    const response = await fetch(url, {
      method: "POST",
      body: params,
      headers: { accept: "application/json" },
    });
    const type = response.headers.get("content-type") || "";
    return type.includes("json")
      ? await response.json()
      : { status: "refused", error: await response.text() };
  };

  // A history (the one kept here, or a file's) sent to be checked and shown; resolves to
  // the error, or "" once it is kept.
  const showHistory = async (text) => {
    const params = new URLSearchParams();
    params.append("history", text);
    try {
      const answer = await send("/api/practice/history", params);
      if (answer.status !== "ready") return answer.error || "the history was refused";
      keepHistory(answer);
      return "";
    } catch (error) {
      return "The server did not answer: try again.";
    }
  };

  const showErrors = (errors) => {
    for (const box of form.querySelectorAll("p.error[id^='error-']")) {
      const name = box.id.replace(/^error-/, "");
      const text = errors[name] || "";
      box.textContent = text;
      const fieldBox = box.closest(".field");
      if (fieldBox) fieldBox.classList.toggle("invalid", text !== "");
      const control = document.getElementById("f-" + name);
      if (control) {
        if (text) control.setAttribute("aria-invalid", "true");
        else control.removeAttribute("aria-invalid");
      }
    }
    if (Object.keys(errors).some((name) => name !== "")) {
      document.getElementById("setup").open = true;
    }
  };

  const post = async (params) => {
    let answer;
    try {
      answer = await send("/api/practice", params);
    } catch (error) {
      busy = false;
      errorBox.textContent = "The server did not answer: press the button again.";
      return;
    }
    if (answer.status === "working") {
      put({ table: answer.progress });
      setTimeout(() => post(params), 300);
      return;
    }
    busy = false;
    form.removeAttribute("aria-busy");
    showErrors(answer.errors || {});
    errorBox.textContent = answer.error || (answer.errors && answer.errors[""]) || "";
    if (answer.status !== "ready") return;
    shown = answer.parts;
    put(shown);
    stateField.value = JSON.stringify(answer.state);
    keepHistory(answer);
    save();
    if (params.get("play") === "start") {  // a new session: its table in view
      document.getElementById("setup").open = false;
      window.scrollTo(0, 0);
    }
    const next = form.querySelector("#buttons button:not([disabled])");
    if (next && document.activeElement && document.activeElement.closest("#buttons")) {
      next.focus();
    }
  };

  const play = async (value) => {
    if (busy) return;
    const button = form.querySelector(`button[name="play"][value="${value}"]`);
    if (!button || button.disabled) return;
    busy = true;
    form.setAttribute("aria-busy", "true");
    const params = new URLSearchParams();
    if (value === "start") {
      await reading;
      for (const [name, given] of new FormData(form)) {
        if (!["state", "play", "history"].includes(name)) params.append(name, String(given));
      }
    } else {
      params.append("state", stateField.value);
    }
    params.append("history", historyField.value);
    params.append("play", value);
    post(params);
  };

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    play(event.submitter ? event.submitter.value : "start");
  });

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
    const target = event.target;
    if (target instanceof Element && target.closest("input, select, textarea, summary")) return;
    const value = { h: "hit", s: "stand", n: "deal" }[event.key.toLowerCase()];
    if (value) {
      event.preventDefault();
      play(value);
    }
  });

  file.addEventListener("change", () => {
    const chosen = file.files[0];
    chartText.value = "";
    chartName.value = "";
    if (!chosen) return;
    reading = chosen.text().then((text) => {
      chartText.value = text;
      chartName.value = chosen.name;
    });
  });

  document.querySelector(".history-controls").hidden = false;  // they need this script
  document.getElementById("history").addEventListener("click", (event) => {
    if (!(event.target instanceof Element) || !event.target.closest("#drill-mistakes")) return;
    document.getElementById("f-drill").value = "mistakes";  // the history's reviews, dealt
    play("start");
  });

  document.getElementById("history-export").addEventListener("click", () => {
    const text = historyField.value;
    if (!text) {
      historySaid.textContent = "Nothing to export yet: play a few decisions first.";
      return;
    }
    const pretty = JSON.stringify(JSON.parse(text), null, 1) + "\n";
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([pretty], { type: "application/json" }));
    link.download = "cbj-practice-history.json";
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    historySaid.textContent = "Exported as cbj-practice-history.json.";
  });

  const importer = document.getElementById("history-import");
  importer.addEventListener("change", async () => {
    const chosen = importer.files[0];
    if (!chosen) return;
    const error = await showHistory(await chosen.text());
    historySaid.textContent = error
      ? `${chosen.name} was not imported: ${error}`
      : `Imported ${chosen.name}: your practice carries on from it.`;
    importer.value = "";
  });

  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(KEY) || "null");
  } catch (error) {
    saved = null;
  }
  if (saved && saved.state && !stateField.value) {  // carry on the session kept here
    stateField.value = saved.state;
    shown = saved.parts || {};
    put(shown);
    document.getElementById("setup").open = false;
  }
  let kept = "";
  try {
    kept = localStorage.getItem(HISTORY_KEY) || "";
  } catch (error) {
    kept = "";
  }
  if (kept) {  // the history kept here, checked and shown
    showHistory(kept).then((error) => {
      if (error) {
        historySaid.textContent =
          `The practice kept in this browser could not be read (${error}): a new one starts.`;
      }
    });
  }
})();
