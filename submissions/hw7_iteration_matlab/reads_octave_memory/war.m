function out = war(hand1, hand2)
% Play war until one player holds all the cards.
rounds = 0;
while ~isempty(hand1) && ~isempty(hand2)
    c1 = hand1(1);
    c2 = hand2(1);
    hand1(1) = [];
    hand2(1) = [];
    rounds = rounds + 1;
    if (c1 == 2 && c2 == 13) || (c1 > c2 && ~(c1 == 13 && c2 == 2))
        hand1 = [hand1, c1, c2];
    else
        hand2 = [hand2, c2, c1];
    end
end
if isempty(hand2)
    out = sprintf('Player 1 defeated player 2 in %d rounds.', rounds);
else
    out = sprintf('Player 2 defeated player 1 in %d rounds.', rounds);
end
