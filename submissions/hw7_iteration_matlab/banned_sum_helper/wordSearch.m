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
