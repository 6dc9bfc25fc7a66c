// The bank field's suggestions. The browser's own <datalist> matches the letters as
// typed, so "itau" never finds "ITAÚ UNIBANCO S.A."; this list folds accents, capitals
// and punctuation away (as claims.folding does on the server) and keeps the server's
// order: retail banks first. Without this script the <datalist> still works.
(function () {
  "use strict";

  var SHOWN = 8;

  function fold(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/[^a-z0-9\s]/g, "").replace(/\s+/g, " ").trim();
  }

  function enhance(input, index) {
    var datalist = document.getElementById(input.getAttribute("list"));
    if (!datalist) { return; }
    var banks = Array.prototype.map.call(datalist.options, function (option) {
      var known = option.getAttribute("data-apelido") || "";
      return { label: option.value, known: known, words: fold(option.value + " " + known) };
    });
    input.removeAttribute("list");  // ours instead of the browser's
    var list = document.createElement("ul");
    list.id = "bancos-sugeridos-" + index;
    list.className = "bank-suggestions";
    list.setAttribute("role", "listbox");
    list.setAttribute("aria-label", "Sugestões");
    list.hidden = true;
    input.parentNode.appendChild(list);
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-controls", list.id);
    input.setAttribute("aria-expanded", "false");
    var active = -1;

    function close() {
      list.hidden = true;
      active = -1;
      input.setAttribute("aria-expanded", "false");
      input.removeAttribute("aria-activedescendant");
    }

    function choose(item) {
      input.value = item.getAttribute("data-valor");
      close();
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }

    function highlight(position) {
      var items = list.querySelectorAll("[role=option]");
      if (!items.length) { return; }
      active = (position + items.length) % items.length;
      items.forEach(function (item, i) { item.setAttribute("aria-selected", String(i === active)); });
      input.setAttribute("aria-activedescendant", items[active].id);
      items[active].scrollIntoView({ block: "nearest" });
    }

    function show() {
      var typed = fold(input.value);
      list.textContent = "";
      active = -1;
      if (!typed) { close(); return; }
      var words = typed.split(" ");
      var found = banks.filter(function (bank) {
        return words.every(function (word) { return bank.words.indexOf(word) !== -1; });
      }).slice(0, SHOWN);
      if (!found.length || (found.length === 1 && found[0].label === input.value)) {
        close();
        return;
      }
      found.forEach(function (bank, i) {
        var item = document.createElement("li");
        item.id = list.id + "-" + i;
        item.setAttribute("role", "option");
        item.setAttribute("aria-selected", "false");
        item.setAttribute("data-valor", bank.label);
        item.textContent = bank.label + (bank.known ? " (" + bank.known + ")" : "");
        // mousedown, not click: the input keeps its focus, so blur does not close first
        item.addEventListener("mousedown", function (event) {
          event.preventDefault();
          choose(item);
        });
        list.appendChild(item);
      });
      list.hidden = false;
      input.setAttribute("aria-expanded", "true");
    }

    input.addEventListener("input", show);
    input.addEventListener("blur", close);
    input.addEventListener("keydown", function (event) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        if (list.hidden) { show(); }
        highlight(active + (event.key === "ArrowDown" ? 1 : -1));
        event.preventDefault();
      } else if (event.key === "Enter" && !list.hidden && active >= 0) {
        choose(list.querySelectorAll("[role=option]")[active]);
        event.preventDefault();  // chosen, not the form sent
      } else if (event.key === "Escape" && !list.hidden) {
        close();
        event.preventDefault();
      }
    });
  }

  function start() {
    document.querySelectorAll("input[data-bank-picker]").forEach(enhance);
  }

  // The admin loads it in <head> (form media), the hosted pages with defer.
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
}());
