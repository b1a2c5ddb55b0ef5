function s = extractAfter(str, pos)
% MATLAB's extractAfter (R2016b): the text after a position or after the first occurrence of a pattern.
  if ischar(pos)
    at = strfind(str, pos);
    if isempty(at)
      s = '';
      return;
    end
    pos = at(1) + numel(pos) - 1;
  end
  s = str(pos + 1:end);
end
