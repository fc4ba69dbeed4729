// pnpforge table (/t/CODE): every change saved as it is made, and other phones' changes shown within
// a second (a long poll). Without this file the page still works: Save posts the whole sheet.
"use strict";
(function () {
  const sheet = document.getElementById("sheet");
  if (!sheet || !sheet.dataset.table) return;
  const code = sheet.dataset.table;
  const notice = document.getElementById("table-notice");
  const live = sheet.querySelector(".live");
  const lang = (sheet.querySelector('input[name="lang"]') || {}).value || "en";
  let seen = parseInt(sheet.dataset.version, 10) || 0;
  let applying = false;
  const pending = {};   // field -> value not yet saved
  const mine = {};      // field -> the value this phone last saved
  let timer = null;
  let saving = false;
  if (live) live.hidden = false;

  const valueOf = function (input) {
    if (input.type === "checkbox") return input.checked ? "on" : "";
    return input.value;
  };
  const labelOf = function (input) {
    return input.getAttribute("aria-label") || input.name;
  };
  const tell = function (text) {
    if (!notice) return;
    notice.textContent = text;
    notice.hidden = false;
  };
  const say = function (key, value) {
    const template = sheet.dataset[key] || "";
    return template.replace("{value}", value);
  };
  const flush = function () {
    if (saving) return;
    const fields = Object.keys(pending);
    if (!fields.length) return;
    const body = new URLSearchParams();
    body.set("base", String(seen));
    body.set("lang", lang);
    fields.forEach(function (f) { body.set(f, pending[f]); mine[f] = pending[f]; delete pending[f]; });
    saving = true;
    fetch("/api/t/" + code + "/edit", { method: "POST", body: body })
      .then(function (r) { return r.json(); })
      .then(function (data) {
        Object.keys(data.conflicts || {}).forEach(function (f) {
          const input = sheet.querySelector('[name="' + CSS.escape(f) + '"]');
          tell(labelOf(input || { getAttribute: function () { return f; } }) + ": " + say("replaced", data.conflicts[f] || "—"));
        });
        if (data.ok === false && data.problems) tell(data.problems.map(function (p) { return p.message; }).join(" "));
      })
      .catch(function () { fields.forEach(function (f) { if (!(f in pending)) pending[f] = mine[f]; }); })
      .then(function () { saving = false; if (Object.keys(pending).length) flush(); });
  };
  const edited = function (event) {
    if (applying) return;
    const input = event.target;
    if (!input.name || input.name === "lang" || input.name === "count" || input.name === "round") return;
    pending[input.name] = valueOf(input);
    input.classList.remove("changed");
    clearTimeout(timer);
    timer = setTimeout(flush, 80);
  };
  sheet.addEventListener("input", edited);
  sheet.addEventListener("change", edited);

  const apply = function (changed) {
    let reload = false;
    applying = true;
    Object.keys(changed).forEach(function (f) {
      if (f === "count" || f === "round") {
        const here = sheet.querySelector('input[name="' + f + '"]');
        if (!here || here.value !== changed[f]) reload = true;
        return;
      }
      if (f in pending) return; // this phone's newer edit is on its way: it wins
      const input = sheet.querySelector('[name="' + CSS.escape(f) + '"]');
      if (!input) return;
      const value = changed[f];
      if (valueOf(input) === value) return;
      if (f in mine && mine[f] !== value) {
        tell(labelOf(input) + ": " + say("changedElsewhere", value || "—"));
        input.classList.add("changed");
      }
      if (input.type === "checkbox") input.checked = ["on", "true", "1"].indexOf(value) >= 0;
      else input.value = value;
      delete mine[f];
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    applying = false;
    return reload;
  };
  let failures = 0;
  const poll = function () {
    fetch("/api/t/" + code + "/changes?since=" + seen + "&lang=" + lang, { cache: "no-store" })
      .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.json(); })
      .then(function (data) {
        failures = 0;
        if (data.closed && !sheet.dataset.closed) { window.location.reload(); return; }
        if (apply(data.changed || {})) { window.location.reload(); return; }
        seen = Math.max(seen, data.version || 0);
        poll();
      })
      .catch(function () { failures = Math.min(failures + 1, 10); setTimeout(poll, 500 * failures); });
  };
  poll();
  // Back to this page from another one: the browser's copy may be old, so ask the server again
  window.addEventListener("pageshow", function (event) { if (event.persisted) window.location.reload(); });
  // a submit (+ Player, Undo, Game over) carries the unsaved typing with it: nothing to send twice
  sheet.addEventListener("submit", function () { clearTimeout(timer); });
})();
