function out = blackJack(hand, deck, opponent)
% ----- written by T. Student -----
  total = 0;
  % loop over the values
  for k = 1:2
  total = total + cardValue(hand(k));
end
  k = 1;
  % loop over the values
  while total < opponent && k <= length(deck)
  total = total + cardValue(deck(k));
  k = k + 1;
end
  out = total >= opponent && total <= 21;
  
function v = cardValue(c)
% ----- written by T. Student -----
  if c == 65
  v = 11;
  elseif c == 74 || c == 75 || c == 81
  v = 10;
  else
  v = c;
end

