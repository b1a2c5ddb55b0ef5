function [winner, score] = goFish(hand1, hand2, deck)
% The handout's Go Fish: pairs first, then alternate turns until a hand is empty.
[hand1, p1] = dropPairs(hand1);
[hand2, p2] = dropPairs(hand2);
score = [p1, p2];
turn = 1;
while ~isempty(hand1) && ~isempty(hand2)
    if turn == 1
        asker = hand1;
        other = hand2;
    else
        asker = hand2;
        other = hand1;
    end
    wanted = asker(1);
    idx = find(other == wanted, 1);
    if ~isempty(idx)
        asker(1) = [];
        other(idx) = [];
        score(turn) = score(turn) + 1;
    else
        drawn = deck(1);
        deck(1) = [];
        asker = [asker, drawn];
        asker = [asker(2:end), asker(1)];
        where = find(asker == drawn);
        if length(where) == 2
            asker(where) = [];
            score(turn) = score(turn) + 1;
        end
    end
    if turn == 1
        hand1 = asker;
        hand2 = other;
        turn = 2;
    else
        hand2 = asker;
        hand1 = other;
        turn = 1;
    end
end
if score(1) > score(2)
    winner = 'Player 1 won!';
elseif score(2) > score(1)
    winner = 'Player 2 won!';
else
    winner = 'It''s a tie!';
end

function [kept, pairs] = dropPairs(hand)
kept = [];
pairs = 0;
for k = 1:length(hand)
    idx = find(kept == hand(k), 1);
    if isempty(idx)
        kept = [kept, hand(k)];
    else
        kept(idx) = [];
        pairs = pairs + 1;
    end
end
