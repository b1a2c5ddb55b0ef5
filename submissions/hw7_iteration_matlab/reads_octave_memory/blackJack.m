function out = blackJack(hand, deck, opponent)
% The House draws in order while below the opponent; a tie wins, over 21 loses.
total = 0;
for k = 1:2
    total = total + cardValue(hand(k));
end
k = 1;
while total < opponent && k <= length(deck)
    total = total + cardValue(deck(k));
    k = k + 1;
end
out = total >= opponent && total <= 21;

function v = cardValue(c)
if c == 65
    v = 11;
elseif c == 74 || c == 75 || c == 81
    v = 10;
else
    v = c;
end
