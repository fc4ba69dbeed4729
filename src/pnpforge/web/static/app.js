// pnpforge table page: live score totals and small comforts. The page works without this file:
// every button is a plain form submit the server answers in full.
"use strict";
(function () {
  const sheet = document.getElementById("sheet");
  if (sheet) {
    let timer = null;
    let asked = 0;
    const hint = sheet.querySelector(".js-hint");
    if (hint) hint.hidden = false;
    const update = function () {
      const mine = ++asked;
      const body = new URLSearchParams(new FormData(sheet));
      fetch(sheet.dataset.api, { method: "POST", body: body })
        .then(function (r) { return r.json(); })
        .then(function (data) {
          if (mine !== asked) return; // a later update is on its way
          document.getElementById("result").innerHTML = data.html || "";
          sheet.querySelectorAll(".err").forEach(function (e) { e.textContent = ""; });
          sheet.querySelectorAll("[aria-invalid]").forEach(function (e) { e.removeAttribute("aria-invalid"); });
          (data.problems || []).forEach(function (p) {
            if (!p.field) return;
            const input = sheet.querySelector('[name="' + CSS.escape(p.field) + '"]');
            if (input) input.setAttribute("aria-invalid", "true");
            const base = p.field.replace(/\.\d+$/, "");
            const note = sheet.querySelector('.err[data-for="' + CSS.escape(base) + '"]');
            if (note) note.textContent += (p.code ? "[" + p.code + "] " : "") + p.message + " ";
          });
          const next = sheet.querySelector("button.next");
          if (next) next.hidden = !(data.carry && Object.keys(data.carry).length);
        })
        .catch(function () { /* offline for a moment: the Count button still submits */ });
    };
    sheet.addEventListener("input", function (event) {
      const named = /^p(\d+):name$/.exec(event.target.name || "");
      if (named) {  // column heads further down follow the names as they are typed
        sheet.querySelectorAll('[data-name-of="' + named[1] + '"]').forEach(function (head) {
          head.textContent = event.target.value || event.target.placeholder;
        });
      }
      clearTimeout(timer);
      timer = setTimeout(update, 120);
    });
    sheet.addEventListener("change", update);
  }
  // tapping a violation picks out its marks on the board
  document.querySelectorAll(".violations li[data-error]").forEach(function (item) {
    item.addEventListener("click", function () {
      const marks = document.querySelectorAll('.mark[data-error="' + item.dataset.error + '"]');
      document.querySelectorAll(".mark.focus").forEach(function (m) { m.classList.remove("focus"); });
      marks.forEach(function (m) { m.classList.add("focus"); });
      if (marks.length) marks[0].scrollIntoView({ block: "center", behavior: "smooth" });
    });
  });
  document.querySelectorAll("button[data-wait]").forEach(function (b) {
    b.form.addEventListener("submit", function () {
      b.textContent = b.dataset.wait;
      b.disabled = true;
    });
  });
})();
