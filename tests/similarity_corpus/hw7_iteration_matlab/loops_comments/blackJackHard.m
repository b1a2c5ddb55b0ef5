function [values, winners] = blackJackHard(risks, deck, discard)
% ----- written by T. Student -----
  deck = arrayfun(@cardValue, deck);
  discard = arrayfun(@cardValue, discard);
  hands = cell(1, 5);
  % loop over the values
  for s = 1:5
  hands{s} = deck(1);
  deck(1) = [];
end
  % loop over the values
  for s = 1:5
  hands{s} = [hands{s}, deck(1)];
  deck(1) = [];
end
  active = true(1, 5);
  % loop over the values
  while any(active)
  % loop over the values
  for s = 1:5
  if ~active(s)
  continue;
end
  if s == 5
  v = handValue(hands{5});
  hit = v < 17 || (v == 17 && any(hands{5} == 11));
  else
  known = [discard, hands{s}(1)];
  % loop over the values
  for t = 1:5
  known = [known, hands{t}(2:end)];
end
  hit = chance(handValue(hands{s}), known) >= risks(s);
end
  if hit
  hands{s} = [hands{s}, deck(1)];
  deck(1) = [];
  active(s) = handValue(hands{s}) <= 21;
  else
  active(s) = false;
end
end
end
  values = zeros(1, 5);
  % loop over the values
  for s = 1:5
  values(s) = handValue(hands{s});
end
  winners = [];
  % loop over the values
  for s = 1:4
  if values(s) <= 21 && (values(5) > 21 || values(s) > values(5))
  winners = [winners, s];
end
end
end
  
function v = cardValue(c)
% ----- written by T. Student -----
  if c == 65
  v = 11;
  elseif c == 74 || c == 75 || c == 81
  v = 10;
  else
  v = c;
end
end
  
function total = handValue(cards)
% ----- written by T. Student -----
  total = 0;
  aces = 0;
  % loop over the values
  for k = 1:length(cards)
  total = total + cards(k);
  aces = aces + (cards(k) == 11);
end
  % loop over the values
  while total > 21 && aces > 0
  total = total - 10;
  aces = aces - 1;
end
end
  
function p = chance(value, known)
% ----- written by T. Student -----
  counts = [0, 4 * ones(1, 8), 16, 4];  
  % loop over the values
  for k = 1:length(known)
  counts(known(k)) = counts(known(k)) - 1;
end
  safe = 0;
  total = 0;
  % loop over the values
  for v = 2:11
  total = total + counts(v);
  if (v == 11 && 1 <= 21 - value) || (v ~= 11 && v <= 21 - value)
  safe = safe + counts(v);
end
end
  p = safe / total;
end

