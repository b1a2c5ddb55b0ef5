function s = insertAfter(str, pos, text)
% MATLAB's insertAfter (R2016b): insert text after a position or after every occurrence of a pattern.
  if isnumeric(pos)
    s = [str(1:pos) text str(pos + 1:end)];
  else
    s = strrep(str, pos, [pos text]);
  end
end
