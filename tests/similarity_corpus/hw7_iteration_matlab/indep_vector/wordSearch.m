function [grid, where] = wordSearch(grid, list)
% wordSearch: find each word (any of four directions) and hash it out
orig = lower(grid);
[R, C] = size(grid);
where = zeros(size(list, 1), 2);
steps = [0 1; 0 -1; 1 0; -1 0];
for w = 1:size(list, 1)
    word = lower(strtrim(list(w, :)));
    L = length(word);
    done = false;
    for r = 1:R
        for c = 1:C
            for s = 1:4
                rows = r + (0:L-1) * steps(s, 1);
                cols = c + (0:L-1) * steps(s, 2);
                if done || any(rows < 1 | rows > R | cols < 1 | cols > C)
                    continue
                end
                idx = sub2ind([R C], rows, cols);
                if strcmp(orig(idx), word)
                    grid(idx) = '#';
                    where(w, :) = [r c];
                    done = true;
                end
            end
        end
    end
end
end
