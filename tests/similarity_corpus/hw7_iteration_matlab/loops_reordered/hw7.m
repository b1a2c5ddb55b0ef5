function v = cardValue(c)
if c == 65
    v = 11;
elseif c == 74 || c == 75 || c == 81
    v = 10;
else
    v = c;
end
end

function out = scrabbleScore(mine, theirs)
% Total both players' scores with loops (sum is banned) and name the winner.
myTotal = 0;
for k = 1:length(mine)
    myTotal = myTotal + mine(k);
end
theirTotal = 0;
for k = 1:length(theirs)
    theirTotal = theirTotal + theirs(k);
end
if myTotal > theirTotal
    out = 'I am the Scrabble champion!';
elseif myTotal < theirTotal
    out = 'Beginner''s luck...';
else
    out = 'I challenge you to a rematch!';
end
end

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

function [solved, where] = wordSearch(puzzle, words)
% Find each word (any of four directions), cross it out with '#', report its start.
[rows, cols] = size(puzzle);
solved = puzzle;
where = zeros(size(words, 1), 2);
steps = [0 1; 0 -1; 1 0; -1 0];
for w = 1:size(words, 1)
    word = lower(strtrim(words(w, :)));
    found = false;
    for r = 1:rows
        for c = 1:cols
            for s = 1:4
                if found
                    break;
                end
                rr = r + steps(s, 1) * (0:length(word) - 1);
                cc = c + steps(s, 2) * (0:length(word) - 1);
                if all(rr >= 1 & rr <= rows & cc >= 1 & cc <= cols)
                    letters = puzzle(sub2ind([rows, cols], rr, cc));
                    if strcmp(lower(letters), word)
                        solved(sub2ind([rows, cols], rr, cc)) = '#';
                        where(w, :) = [r, c];
                        found = true;
                    end
                end
            end
        end
    end
end
end

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
end

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
end

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

function solved = wordSearchHard(puzzle, list)
% Every occurrence of every word, wrapping around the edges; one '@' border per missing word.
[rows, cols] = size(puzzle);
crossed = false(rows, cols);
missing = 0;
rest = list;
while ~isempty(rest)
    [word, rest] = strtok(rest, ',');
    word = lower(strtrim(word));
    if isempty(word)
        continue;
    end
    n = length(word);
    found = false;
    for r = 1:rows
        for c = 1:cols
            for s = 1:4
                if s <= 2
                    if n > cols
                        continue;
                    end
                    dir = 3 - 2 * s;
                    rr = r * ones(1, n);
                    cc = mod(c - 1 + dir * (0:n - 1), cols) + 1;
                else
                    if n > rows
                        continue;
                    end
                    dir = 7 - 2 * s;
                    rr = mod(r - 1 + dir * (0:n - 1), rows) + 1;
                    cc = c * ones(1, n);
                end
                idx = sub2ind([rows, cols], rr, cc);
                if strcmp(lower(puzzle(idx)), word)
                    crossed(idx) = true;
                    found = true;
                end
            end
        end
    end
    if ~found
        missing = missing + 1;
    end
end
solved = puzzle;
solved(crossed) = '#';
for k = 1:missing
    solved = [repmat('@', 1, size(solved, 2) + 2); ...
              repmat('@', size(solved, 1), 1), solved, repmat('@', size(solved, 1), 1); ...
              repmat('@', 1, size(solved, 2) + 2)];
end
end
