function [solved, where] = wordSearch(puzzle, words)
% Cross out every placement of each word (any of four directions) with '#', report the first start.
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
                rr = r + steps(s, 1) * (0:length(word) - 1);
                cc = c + steps(s, 2) * (0:length(word) - 1);
                if all(rr >= 1 & rr <= rows & cc >= 1 & cc <= cols)
                    letters = puzzle(sub2ind([rows, cols], rr, cc));
                    if strcmp(lower(letters), word)
                        solved(sub2ind([rows, cols], rr, cc)) = '#';
                        if ~found
                            where(w, :) = [r, c];
                        end
                        found = true;
                    end
                end
            end
        end
    end
end
