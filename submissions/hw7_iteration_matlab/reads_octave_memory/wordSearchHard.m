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
