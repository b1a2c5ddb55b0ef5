function [solved, where] = wordSearch(puzzle, words)
% ----- written by T. Student -----
  [rows, cols] = size(puzzle);
  solved = puzzle;
  where = zeros(size(words, 1), 2);
  steps = [0 1; 0 -1; 1 0; -1 0];
  % loop over the values
  for w = 1:size(words, 1)
  word = lower(strtrim(words(w, :)));
  found = false;
  % loop over the values
  for r = 1:rows
  % loop over the values
  for c = 1:cols
  % loop over the values
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

