function str = war(deck1, deck2)
% war: play until somebody has every card
n = 0;
while length(deck1) > 0 && length(deck2) > 0
    n = n + 1;
    a = deck1(1); deck1 = deck1(2:end);
    b = deck2(1); deck2 = deck2(2:end);
    special = [a b] == [2 13] | [a b] == [13 2];
    if all(special)
        oneWins = a == 2;
    else
        oneWins = a > b;
    end
    if oneWins
        deck1(end+1:end+2) = [a b];
    else
        deck2(end+1:end+2) = [b a];
    end
end
if length(deck1) > 0
    str = ['Player 1 defeated player 2 in ' num2str(n) ' rounds.'];
else
    str = ['Player 2 defeated player 1 in ' num2str(n) ' rounds.'];
end
end
