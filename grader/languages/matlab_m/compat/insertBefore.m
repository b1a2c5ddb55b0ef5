function s = insertBefore(str, pos, text)
% MATLAB's insertBefore (R2016b): insert text before a position or before every occurrence of a pattern.
  if isnumeric(pos)
    s = [str(1:pos - 1) text str(pos:end)];
  else
    s = strrep(str, pos, [text pos]);
  end
end
