/* The deal viewer: shows one step of the step list the server computed with the rules engine
   and embedded in the page (#deal-data). Step 0 is the deal as dealt, step k the table after
   the k-th card. Buttons and keys (Home, ←, →, End) move between steps; the plays in the list
   of tricks jump to theirs. No framework; the one network call is the arbiter's analysis of the
   step shown (data.analysis: GET its url ?at=the step's seq, the engine's answer; asked again
   while the server answers 202, computing it), when the server offered it to this user. Every sentence comes from #viewer-text, in the page's language. */
(function () {
  "use strict";

  var source = document.getElementById("deal-data");
  var viewer = document.getElementById("viewer");
  if (!source || !viewer) {
    return;
  }
  var data = JSON.parse(source.textContent);
  var text = JSON.parse(document.getElementById("viewer-text").textContent);
  var steps = data.steps;
  var last = steps.length - 1;
  var current = 0;

  var SEATS = ["N", "E", "S", "W"];
  var SUITS = ["S", "H", "D", "C"];
  var RANKS = "23456789TJQKA";
  var SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  var SUIT_NAME = text.suits;
  var RANK_NAME = text.ranks;
  var FACE = { T: "10" };
  var names = {};
  data.seats.forEach(function (seat) { names[seat.seat] = seat.name; });

  function $(id) { return document.getElementById(id); }

  /* A sentence of #viewer-text with its %(name)s placeholders filled in. */
  function t(key, params) {
    return text[key].replace(/%\((\w+)\)s/g, function (whole, name) {
      return params && name in params ? String(params[name]) : whole;
    });
  }

  function label(card) {
    return t("card", { rank: RANK_NAME[card[0]] || card[0], suit: SUIT_NAME[card[1]] });
  }

  function who(seat) {
    return seat + " (" + names[seat] + ")";
  }

  function cardNode(card, classes) {
    var node = document.createElement("span");
    node.className = "card suit-" + card[1] + (classes ? " " + classes : "");
    node.setAttribute("data-card", card);
    node.title = label(card);
    node.appendChild(document.createTextNode(FACE[card[0]] || card[0]));
    var suit = document.createElement("span");
    suit.className = "suit";
    suit.textContent = SYMBOL[card[1]];
    node.appendChild(suit);
    return node;
  }

  function byRankDown(a, b) {
    return RANKS.indexOf(b[0]) - RANKS.indexOf(a[0]);
  }

  /* Points as the server's pages write them (web_tags.number): a real minus sign, U+2212. */
  function pointsText(value) {
    return value < 0 ? "\u2212" + String(-value) : String(value);
  }

  /* A proven range of points in ``node``: one number when it is exact, else "low…high", a line
     break allowed after the "…" (as the ranges after each trick, _annotation.html). */
  function showRange(node, low, high) {
    clear(node);
    node.appendChild(document.createTextNode(pointsText(low)));
    if (low !== high) {
      node.appendChild(document.createTextNode("\u2026"));
      node.appendChild(document.createElement("wbr"));
      node.appendChild(document.createTextNode(pointsText(high)));
    }
  }

  /* Points lost, at both ends of a proven range (web_tags.cost): "−15", "−4…−15", "0…−15". */
  function costText(low, high) {
    var least = low ? "\u2212" + low : "0";
    return low === high ? least : least + "\u2026\u2212" + high;
  }

  function clear(node) {
    while (node.firstChild) {
      node.removeChild(node.firstChild);
    }
  }

  /* One hand, a row per suit, highest first. The player on turn's legal cards are marked
     "legal", his others "not-legal". */
  function renderHand(seat, step) {
    var hand = $("hand-" + seat);
    clear(hand);
    var onTurn = step.to_play === seat;
    var cards = step.hands[seat];
    SUITS.forEach(function (suit) {
      var row = document.createElement("div");
      row.className = "suit-row";
      row.setAttribute("role", "listitem");
      var inSuit = cards.filter(function (c) { return c[1] === suit; }).sort(byRankDown);
      var words = [];
      inSuit.forEach(function (card) {
        var legal = onTurn && step.legal.indexOf(card) >= 0;
        row.appendChild(cardNode(card, onTurn ? (legal ? "legal" : "not-legal") : ""));
        var face = FACE[card[0]] || card[0];
        words.push(legal ? t("legal_card", { card: face }) : face);
      });
      if (!inSuit.length) {
        var none = document.createElement("span");
        none.className = "void";
        none.textContent = "\u2014";
        row.appendChild(none);
      }
      row.setAttribute("aria-label", SUIT_NAME[suit] + ": " + (words.length ? words.join(", ") : t("none")));
      hand.appendChild(row);
    });
    var section = $("seat-" + seat);
    section.classList.toggle("on-turn", onTurn);
    section.querySelector(".on-turn-mark").hidden = !onTurn;
    $("tricks-" + seat).textContent = step.tricks[seat];
  }

  function renderTrick(step) {
    var play = step.play;
    SEATS.forEach(function (seat) {
      var slot = $("trick-" + seat);
      clear(slot);
      slot.className = "slot slot-" + seat;
    });
    step.trick.forEach(function (placed) {
      var slot = $("trick-" + placed.seat);
      slot.appendChild(cardNode(placed.card));
      if (play && play.applied && play.seat === placed.seat) {
        slot.classList.add("last");
        if (play.violation) {
          slot.classList.add("illegal");
        }
      }
    });
    var caption = t("trick", { number: step.trick_no });
    if (step.winner) {
      $("trick-" + step.winner).classList.add("winner");
      caption = t("trick_won", { number: step.trick_no, who: who(step.winner) });
    } else if (step.to_play) {
      caption = t(step.trick.length ? "trick_to_play" : "trick_to_lead", { number: step.trick_no, who: who(step.to_play) });
    }
    $("trick-caption").textContent = caption;
  }

  function renderPlay(step, index) {
    var play = step.play;
    var playText = $("play-text");
    var legalLine = $("play-legal");
    var violationBox = $("play-violation");
    var disputesBox = $("play-disputes");
    clear(legalLine);
    clear(violationBox);
    clear(disputesBox);
    violationBox.hidden = true;
    disputesBox.hidden = true;
    if (!play) {
      playText.textContent = t("dealt") + (step.to_play ? " " + t("leads", { who: who(step.to_play) }) : "");
      return;
    }
    var sentence = t(play.applied ? "plays" : "cannot_play",
      { number: play.index + 1, trick: play.trick_no, who: who(play.seat), card: label(play.card) });
    if (step.winner) {
      sentence += " " + t("wins", { who: who(step.winner), trick: step.trick_no });
    }
    if (play.violation) {
      sentence += " " + t("illegal", { code: play.violation.code, rule: play.violation.rule });
    }
    playText.textContent = sentence;

    var intro = document.createElement("span");
    intro.className = "legal-intro";
    intro.textContent = t("legal_intro", { seat: play.seat, count: play.legal.length });
    legalLine.appendChild(intro);
    var list = document.createElement("span");
    list.className = "legal-cards";
    list.setAttribute("role", "list");
    list.setAttribute("aria-label", t("legal_list", { seat: play.seat }));
    play.legal.slice().sort(function (a, b) {
      return SUITS.indexOf(a[1]) - SUITS.indexOf(b[1]) || byRankDown(a, b);
    }).forEach(function (card) {
      var node = cardNode(card, card === play.card ? "played" : "");
      node.setAttribute("role", "listitem");
      node.setAttribute("aria-label", card === play.card ? t("played", { card: label(card) }) : label(card));
      list.appendChild(node);
    });
    legalLine.appendChild(list);

    if (play.violation) {
      var title = document.createElement("strong");
      title.textContent = t("breaks", { rule: play.violation.rule, code: play.violation.code });
      violationBox.appendChild(title);
      violationBox.appendChild(document.createTextNode(play.violation.detail +
        (play.applied ? "" : " " + t("stops"))));
      violationBox.hidden = false;
    }
    if (play.disputes.length) {
      var head = document.createElement("strong");
      head.textContent = t(play.violation ? "disputed" : "disputed_legal") + " ";
      disputesBox.appendChild(head);
      play.disputes.forEach(function (dispute) {
        var item = document.createElement("q");
        item.textContent = dispute.statement;
        disputesBox.appendChild(item);
        var by = dispute.raised_by ? " \u2014 " + dispute.raised_by : "";
        var status = dispute.status ? " (" + (text.statuses[dispute.status] || dispute.status) + ")" : "";
        disputesBox.appendChild(document.createTextNode(by + status + " "));
      });
      disputesBox.hidden = false;
    }
  }

  function renderControls(index) {
    $("step-counter").textContent = index === 0 ? t("counter_dealt", { last: last }) : t("counter_play", { number: index, last: last });
    [["go-first", index === 0], ["go-back", index === 0], ["go-forward", index === last], ["go-last", index === last]]
      .forEach(function (pair) {
        $(pair[0]).setAttribute("aria-disabled", pair[1] ? "true" : "false");
      });
    var jumps = viewer.querySelectorAll("button.jump");
    for (var i = 0; i < jumps.length; i++) {
      var here = Number(jumps[i].getAttribute("data-step")) === index;
      jumps[i].classList.toggle("current", here);
      if (here) {
        jumps[i].setAttribute("aria-current", "step");
      } else {
        jumps[i].removeAttribute("aria-current");
      }
    }
  }

  /* The arbiter's analysis of the step shown: each seat's worst..best and guaranteed points,
     and each legal card's guaranteed value and cost. Fetched once per step, after a short pause
     (stepping quickly asks for nothing on the way). */
  var analysis = data.analysis;
  var analysisBox = $("analysis");
  var analysed = {};
  var waiting = null;

  /* The panel's sentences, from #viewer-text like every other. */
  function say(key) {
    return text["analysis_" + key.replace("-", "_")];
  }

  function showAnalysis(index) {
    if (!analysis || !analysisBox) {
      return;
    }
    var found = analysed[index];
    var status = $("analysis-status");
    var table = $("analysis-table");
    var cardsLine = $("analysis-cards");
    table.hidden = true;
    cardsLine.hidden = true;
    if (found === undefined) {
      status.textContent = say("loading");
      if (waiting) {
        window.clearTimeout(waiting);
      }
      waiting = window.setTimeout(function () { fetchAnalysis(index); }, 250);
      return;
    }
    if (found === null) {
      status.textContent = say("unavailable");
      return;
    }
    status.textContent = found.exact ? "" : say("not-exact");
    var bounds = found.bounds; // an inexact answer's proven [low, high] of each value
    SEATS.forEach(function (seat) {
      var row = table.querySelector("tr[data-seat='" + seat + "']");
      var values = found.seats[seat];
      ["worst", "best", "guaranteed"].forEach(function (field) {
        var range = bounds ? bounds.seats[seat][field] : [values[field], values[field]];
        showRange(row.querySelector("." + field), range[0], range[1]);
      });
      row.classList.toggle("on-turn", found.to_play === seat);
    });
    table.hidden = false;
    var cards = Object.keys(found.cards);
    if (!found.to_play || !cards.length) {
      return;
    }
    var ranges = {};
    cards.forEach(function (card) {
      ranges[card] = bounds ? bounds.cards[card] : [found.cards[card], found.cards[card]];
    });
    // the seat's guaranteed is its best card's: at least the highest low, at most the highest high
    var topLow = Math.max.apply(null, cards.map(function (card) { return ranges[card][0]; }));
    var topHigh = Math.max.apply(null, cards.map(function (card) { return ranges[card][1]; }));
    clear(cardsLine);
    var intro = document.createElement("span");
    intro.className = "legal-intro";
    intro.textContent = found.to_play + " — " + say("cards") + ": ";
    cardsLine.appendChild(intro);
    cards.sort(function (a, b) {
      return found.cards[b] - found.cards[a] || SUITS.indexOf(a[1]) - SUITS.indexOf(b[1]) || byRankDown(a, b);
    }).forEach(function (card) {
      var range = ranges[card];
      var costLow = Math.max(0, topLow - range[1]);
      var costHigh = Math.max(0, topHigh - range[0]);
      var item = document.createElement("span");
      item.className = "card-value" + (costHigh === 0 ? " best" : "");
      item.setAttribute("data-card", card);
      item.setAttribute("data-cost", String(costLow));
      item.appendChild(cardNode(card));
      var value = document.createElement("span"); // the value and its cost: one piece of text
      showRange(value, range[0], range[1]);
      if (costHigh > 0) {
        value.appendChild(document.createTextNode(" (" + costText(costLow, costHigh) + ")"));
      }
      item.appendChild(document.createTextNode(" "));
      item.appendChild(value);
      cardsLine.appendChild(item);
    });
    cardsLine.hidden = false;
  }

  /* A position nobody asked about before is computed by a background job: the server answers
     202 with Retry-After until it is ready (429 while this user's other jobs run). Keep
     "Analysing…" and ask again, while the step is shown (a step left and shown again asks
     anew), at most ANALYSIS_TRIES times. */
  var ANALYSIS_TRIES = 60;

  function fetchAnalysis(index, tries) {
    var seq = analysis.seqs[index];
    tries = tries || 0;
    function done(result) {
      analysed[index] = result;
      if (index === current) {
        showAnalysis(index);
      }
    }
    if (seq === undefined || !window.fetch) {
      done(null);
      return;
    }
    window.fetch(analysis.url + "?at=" + seq, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        if ((response.status === 202 || response.status === 429) && tries + 1 < ANALYSIS_TRIES) {
          var after = parseInt(response.headers.get("Retry-After"), 10);
          window.setTimeout(function () {
            if (index === current) {
              fetchAnalysis(index, tries + 1);
            }
          }, 1000 * (after > 0 ? after : 2));
          return undefined;
        }
        return response.status === 200 ? response.json().then(function (body) {
          done(body && body.analysis ? body.analysis : null);
        }) : done(null);
      })
      .catch(function () { done(null); });
  }

  function render() {
    var step = steps[current];
    viewer.setAttribute("data-step", String(current));
    SEATS.forEach(function (seat) { renderHand(seat, step); });
    renderTrick(step);
    renderPlay(step, current);
    renderControls(current);
    showAnalysis(current);
  }

  function go(index) {
    var next = Math.max(0, Math.min(last, index));
    if (next === current && viewer.hasAttribute("data-step")) {
      return;
    }
    current = next;
    render();
    if (window.history && window.history.replaceState) {
      window.history.replaceState(null, "", "#step-" + current);
    }
  }

  var moves = {
    first: function () { go(0); },
    back: function () { go(current - 1); },
    forward: function () { go(current + 1); },
    last: function () { go(last); }
  };

  viewer.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button || !viewer.contains(button)) {
      return;
    }
    if (button.hasAttribute("data-go")) {
      moves[button.getAttribute("data-go")]();
    } else if (button.hasAttribute("data-step")) {
      go(Number(button.getAttribute("data-step")));
    }
  });

  var KEYS = { Home: "first", ArrowLeft: "back", ArrowRight: "forward", End: "last" };
  document.addEventListener("keydown", function (event) {
    var move = KEYS[event.key];
    if (!move || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) {
      return;
    }
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) {
      return;
    }
    event.preventDefault();
    moves[move]();
  });

  var fromHash = /^#step-(\d+)$/.exec(window.location.hash);
  current = Math.max(0, Math.min(last, fromHash ? Number(fromHash[1]) : (data.start || 0)));
  render();
})();
