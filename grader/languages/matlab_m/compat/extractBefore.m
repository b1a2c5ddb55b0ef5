function s = extractBefore(str, pos)
% MATLAB's extractBefore (R2016b): the text before a position or before the first occurrence of a pattern.
  if ischar(pos)
    at = strfind(str, pos);
    if isempty(at)
      s = '';
      return;
    end
    pos = at(1);
  end
  s = str(1:pos - 1);
end
