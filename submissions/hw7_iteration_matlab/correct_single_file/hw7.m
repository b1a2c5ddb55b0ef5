% Homework 7: Iteration. All seven functions in one file, vectorised where it reads well.
function result = scrabbleScore(mine, theirs)
    difference = addUp(mine) - addUp(theirs);
    if difference > 0
        result = 'I am the Scrabble champion!';
    elseif difference < 0
        result = 'Beginner''s luck...';
    else
        result = 'I challenge you to a rematch!';
    end
end

function total = addUp(values)
    total = 0;
    for value = values
        total = total + value;
    end
end

function result = war(hand1, hand2)
    rounds = 0;
    while ~isempty(hand1) && ~isempty(hand2)
        rounds = rounds + 1;
        pair = [hand1(1), hand2(1)];
        hand1 = hand1(2:end);
        hand2 = hand2(2:end);
        if beats(pair(1), pair(2))
            hand1 = [hand1, pair];
        else
            hand2 = [hand2, fliplr(pair)];
        end
    end
    winner = 1 + isempty(hand1);
    result = sprintf('Player %d defeated player %d in %d rounds.', winner, 3 - winner, rounds);
end

function yes = beats(card, other)
    if card == 2 && other == 13
        yes = true;
    elseif card == 13 && other == 2
        yes = false;
    else
        yes = card > other;
    end
end

function win = blackJack(hand, deck, opponent)
    values = cardValues([hand, deck]);
    total = values(1) + values(2);
    next = 3;
    while total < opponent && next <= numel(values)
        total = total + values(next);
        next = next + 1;
    end
    win = opponent <= total && total <= 21;
end

function values = cardValues(cards)
    values = cards;
    values(cards == 65) = 11;
    values(ismember(cards, [74 75 81])) = 10;
end

function [outcome, score] = goFish(hand1, hand2, deck)
    [hands{1}, score(1)] = withoutPairs(hand1);
    [hands{2}, score(2)] = withoutPairs(hand2);
    player = 1;
    while ~isempty(hands{1}) && ~isempty(hands{2})
        other = 3 - player;
        mine = hands{player};
        match = find(hands{other} == mine(1), 1);
        if isempty(match)
            drawn = deck(1);
            deck(1) = [];
            mine = [mine(2:end), drawn, mine(1)];
            if nnz(mine == drawn) == 2
                mine(mine == drawn) = [];
                score(player) = score(player) + 1;
            end
        else
            mine(1) = [];
            hands{other}(match) = [];
            score(player) = score(player) + 1;
        end
        hands{player} = mine;
        player = other;
    end
    outcomes = {'It''s a tie!', 'Player 1 won!', 'Player 2 won!'};
    outcome = outcomes{1 + (score(1) > score(2)) + 2 * (score(2) > score(1))};
end

function [kept, pairs] = withoutPairs(hand)
    kept = [];
    pairs = 0;
    for card = hand
        twin = find(kept == card, 1);
        if isempty(twin)
            kept(end + 1) = card;
        else
            kept(twin) = [];
            pairs = pairs + 1;
        end
    end
end

function [puzzle, starts] = wordSearch(puzzle, words)
    original = lower(puzzle);
    starts = zeros(size(words, 1), 2);
    mask = false(size(puzzle));
    for w = 1:size(words, 1)
        [cells, starts(w, :)] = locate(original, lower(strtrim(words(w, :))));
        mask(cells) = true;
    end
    puzzle(mask) = '#';
end

function [cells, start] = locate(grid, word)
% Every placement of the word (a word placed twice is crossed out twice); the first one's start.
    [rows, cols] = size(grid);
    steps = [0 1; 0 -1; 1 0; -1 0];
    offsets = 0:numel(word) - 1;
    cells = [];
    start = [];
    for r = 1:rows
        for c = 1:cols
            for s = 1:4
                rr = r + steps(s, 1) * offsets;
                cc = c + steps(s, 2) * offsets;
                if all(rr >= 1 & rr <= rows & cc >= 1 & cc <= cols)
                    here = sub2ind([rows, cols], rr, cc);
                    if isequal(grid(here), word)
                        cells = [cells, here];
                        if isempty(start)
                            start = [r, c];
                        end
                    end
                end
            end
        end
    end
    if isempty(start)
        error('wordSearch:notFound', 'the word %s is not in the puzzle', word);
    end
end

function solved = wordSearchHard(puzzle, list)
    grid = lower(puzzle);
    [rows, cols] = size(grid);
    mask = false(rows, cols);
    words = strtrim(strsplit(lower(list), ','));
    words = words(~cellfun(@isempty, words));
    missing = 0;
    for w = 1:numel(words)
        word = words{w};
        n = numel(word);
        found = false;
        steps = 0:n - 1;
        for r = 1:rows
            for c = 1:cols
                lines = zeros(0, n);
                if n <= cols
                    lines = [lines; (mod(c - 1 + steps, cols)) * rows + r; (mod(c - 1 - steps, cols)) * rows + r];
                end
                if n <= rows
                    lines = [lines; (c - 1) * rows + mod(r - 1 + steps, rows) + 1; (c - 1) * rows + mod(r - 1 - steps, rows) + 1];
                end
                for k = 1:size(lines, 1)
                    if all(grid(lines(k, :)) == word)
                        mask(lines(k, :)) = true;
                        found = true;
                    end
                end
            end
        end
        missing = missing + ~found;
    end
    solved = puzzle;
    solved(mask) = '#';
    solved = [repmat('@', missing, cols + 2 * missing);
              repmat('@', rows, missing), solved, repmat('@', rows, missing);
              repmat('@', missing, cols + 2 * missing)];
end

function [values, winners] = blackJackHard(risks, deck, discard)
    deck = cardValues(deck);
    discard = cardValues(discard);
    hands = num2cell(deck(1:5));
    for seat = 1:5
        hands{seat}(2) = deck(5 + seat);
    end
    deck = deck(11:end);
    active = true(1, 5);
    while any(active)
        for seat = find(active)
            if seat == 5
                value = handValue(hands{5});
                hit = value < 17 || (value == 17 && any(hands{5} == 11));
            else
                faceUp = cellfun(@(h) h(2:end), hands, 'UniformOutput', false);
                known = [discard, hands{seat}(1), faceUp{:}];
                hit = safeChance(handValue(hands{seat}), known) >= risks(seat);
            end
            if hit
                hands{seat}(end + 1) = deck(1);
                deck(1) = [];
                active(seat) = handValue(hands{seat}) <= 21;
            else
                active(seat) = false;
            end
        end
    end
    values = cellfun(@handValue, hands);
    dealer = values(5);
    seats = 1:4;
    winners = seats(values(1:4) <= 21 & (dealer > 21 | values(1:4) > dealer));
end

function value = handValue(cards)
    value = addUp(cards);
    aces = nnz(cards == 11);
    while value > 21 && aces > 0
        value = value - 10;
        aces = aces - 1;
    end
end

function chance = safeChance(value, known)
    counts = [0, repmat(4, 1, 8), 16, 4];
    for card = known
        counts(card) = counts(card) - 1;
    end
    faces = 1:11;
    faces(11) = 1;
    chance = addUp(counts(faces <= 21 - value)) / addUp(counts);
end
