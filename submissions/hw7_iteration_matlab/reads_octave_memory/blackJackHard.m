function [values, winners] = blackJackHard(risks, deck, discard)
% Four card-counting players and the dealer play one round.
deck = arrayfun(@cardValue, deck);
discard = arrayfun(@cardValue, discard);
hands = cell(1, 5);
for s = 1:5
    hands{s} = deck(1);
    deck(1) = [];
end
for s = 1:5
    hands{s} = [hands{s}, deck(1)];
    deck(1) = [];
end
active = true(1, 5);
while any(active)
    for s = 1:5
        if ~active(s)
            continue;
        end
        if s == 5
            v = handValue(hands{5});
            hit = v < 17 || (v == 17 && any(hands{5} == 11));
        else
            known = [discard, hands{s}(1)];
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
for s = 1:5
    values(s) = handValue(hands{s});
end
winners = [];
for s = 1:4
    if values(s) <= 21 && (values(5) > 21 || values(s) > values(5))
        winners = [winners, s];
    end
end
end

function v = cardValue(c)
if c == 65
    v = 11;
elseif c == 74 || c == 75 || c == 81
    v = 10;
else
    v = c;
end
end

function total = handValue(cards)
total = 0;
aces = 0;
for k = 1:length(cards)
    total = total + cards(k);
    aces = aces + (cards(k) == 11);
end
while total > 21 && aces > 0
    total = total - 10;
    aces = aces - 1;
end
end

function p = chance(value, known)
counts = [0, 4 * ones(1, 8), 16, 4];   % by value 1..11: none of 1, four of 2..9, 16 tens, 4 aces
for k = 1:length(known)
    counts(known(k)) = counts(known(k)) - 1;
end
safe = 0;
total = 0;
for v = 2:11
    total = total + counts(v);
    if (v == 11 && 1 <= 21 - value) || (v ~= 11 && v <= 21 - value)
        safe = safe + counts(v);
    end
end
p = safe / total;
end
